//! Standings worked by hand: a round robin of 5 (Sonneborn-Berger) and a
//! Swiss of 8 after three rounds (Buchholz).

use super::*;
use crate::Game;
use crate::Outcome::{self, Draw, FirstWins, SecondWins};

fn round(games: &[(Seat, Seat, Outcome)], bye: Option<Seat>) -> Round {
    Round {
        games: games
            .iter()
            .map(|&(first, second, o)| Game {
                first,
                second,
                outcome: Some(o),
            })
            .collect(),
        bye,
    }
}

/// (place, seat, points, tie-break) in quarter points, best first.
fn table(lines: &[Line]) -> Vec<(usize, Seat, u32, u32)> {
    lines
        .iter()
        .map(|l| {
            (
                l.place,
                l.seat,
                l.points.in_quarters(),
                l.tie_break.in_quarters(),
            )
        })
        .collect()
}

#[test]
fn a_round_robin_of_five_by_sonneborn_berger() {
    // The Berger rounds for 5 (seats 0-4), with these results:
    // 0 beats 1 and 4, draws 2, loses to 3; 1 beats 2 and 3, draws 4;
    // 2 beats 3; 4 beats 2; 3 beats 4.
    let rounds = [
        round(&[(1, 4, Draw), (2, 3, FirstWins)], Some(0)),
        round(&[(4, 2, FirstWins), (0, 1, FirstWins)], Some(3)),
        round(&[(2, 0, Draw), (3, 4, FirstWins)], Some(1)),
        round(&[(0, 3, SecondWins), (1, 2, FirstWins)], Some(4)),
        round(&[(3, 1, SecondWins), (4, 0, SecondWins)], Some(2)),
    ];
    let lines = standings(5, &rounds, Format::RoundRobin);
    // Points: 0 and 1 2½, 3 2, 2 and 4 1½ (a round robin's bye scores 0).
    // Sonneborn-Berger: 0: 2½ (beat 1) + 1½ (beat 4) + ¾ (drew 2) = 4¾;
    // 1: 1½ (2) + 2 (3) + ¾ (drew 4) = 4¼; 3: 2½ (0) + 1½ (4) = 4;
    // 2: 2 (3) + 1¼ (drew 0) = 3¼; 4: 1½ (2) + 1¼ (drew 1) = 2¾.
    assert_eq!(
        table(&lines),
        [
            (1, 0, 10, 19),
            (2, 1, 10, 17),
            (3, 3, 8, 16),
            (4, 2, 6, 13),
            (5, 4, 6, 11)
        ]
    );
    let first = &lines[0];
    assert_eq!(
        (
            first.won,
            first.drawn,
            first.lost,
            first.byes,
            first.played()
        ),
        (2, 1, 1, 1, 4)
    );
}

#[test]
fn a_swiss_of_eight_by_buchholz() {
    // The rounds of pairing::swiss's worked example.
    let rounds = [
        round(
            &[
                (0, 4, FirstWins),
                (5, 1, Draw),
                (2, 6, FirstWins),
                (7, 3, FirstWins),
            ],
            None,
        ),
        round(
            &[
                (2, 0, SecondWins),
                (1, 7, Draw),
                (3, 5, FirstWins),
                (4, 6, SecondWins),
            ],
            None,
        ),
        round(
            &[
                (0, 7, Draw),
                (3, 1, FirstWins),
                (4, 2, SecondWins),
                (6, 5, FirstWins),
            ],
            None,
        ),
    ];
    let lines = standings(8, &rounds, Format::Swiss);
    // Points: 0 2½; 2, 3, 6, 7 2; 1 1; 5 ½; 4 0. Buchholz (the sum of
    // the opponents' points): 7: 3, 1, 0 = 2+1+2½ = 5½; 2: 6, 0, 4 =
    // 2+2½+0 = 4½; 3: 7, 5, 1 = 2+½+1 = 3½; 6: 2, 4, 5 = 2+0+½ = 2½;
    // 0: 4, 2, 7 = 0+2+2 = 4; 1: 5, 7, 3 = 4½; 5: 1, 3, 6 = 5;
    // 4: 0, 6, 2 = 6½.
    assert_eq!(
        table(&lines),
        [
            (1, 0, 10, 16),
            (2, 7, 8, 22),
            (3, 2, 8, 18),
            (4, 3, 8, 14),
            (5, 6, 8, 10),
            (6, 1, 4, 18),
            (7, 5, 2, 20),
            (8, 4, 0, 26),
        ]
    );
}

#[test]
fn level_players_share_a_place_and_games_in_play_count_nothing() {
    let mut rounds = [round(&[(0, 1, Draw), (2, 3, FirstWins)], None)];
    rounds[0].games[1].outcome = None;
    let lines = standings(4, &rounds, Format::Swiss);
    // 0 and 1: ½ each, Buchholz ½ each: one shared first place; 2 and 3
    // have played nothing yet: level too, third.
    assert_eq!(
        table(&lines),
        [(1, 0, 2, 2), (1, 1, 2, 2), (3, 2, 0, 0), (3, 3, 0, 0)]
    );
    assert_eq!(lines[2].played(), 0);
}
