//! The standings of a tournament: points, then a tie-break,
//! Sonneborn-Berger for a round robin, Buchholz for a Swiss.
//!
//! - A win scores 1, a draw ½, a loss 0; a bye what the format gives
//!   ([`crate::pairing::Format::bye_points`]); a game still in play
//!   nothing yet.
//! - **Sonneborn-Berger:** the final scores of the opponents a player
//!   beat, plus half those of the opponents they drew.
//! - **Buchholz:** the sum of the final scores of a player's opponents.
//! - Only games that ended count for either; a bye counts for neither
//!   (it has no opponent).
//! - Players level on points and tie-break share a place; the table
//!   lists them by seat.

use crate::pairing::Format;
use crate::points::Points;
use crate::{Round, Seat};

/// The tie-break that orders players level on points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TieBreak {
    SonnebornBerger,
    Buchholz,
}

impl TieBreak {
    /// The tie-break of a format: Buchholz for a Swiss, else
    /// Sonneborn-Berger.
    pub fn of(format: Format) -> TieBreak {
        match format {
            Format::Swiss => TieBreak::Buchholz,
            _ => TieBreak::SonnebornBerger,
        }
    }

    /// Its name, as the standings print it.
    pub fn name(self) -> &'static str {
        match self {
            TieBreak::SonnebornBerger => "Sonneborn-Berger",
            TieBreak::Buchholz => "Buchholz",
        }
    }
}

/// One player's line in the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1 for the first; players level on points and tie-break share one.
    pub place: usize,
    pub seat: Seat,
    pub points: Points,
    pub tie_break: Points,
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
    pub byes: u32,
}

impl Line {
    /// Games that ended.
    pub fn played(&self) -> u32 {
        self.won + self.drawn + self.lost
    }
}

/// The standings of `players` seats after `rounds`, best first.
pub fn standings(players: usize, rounds: &[Round], format: Format) -> Vec<Line> {
    let mut lines: Vec<Line> = (0..players)
        .map(|seat| Line {
            place: 0,
            seat,
            points: Points::ZERO,
            tie_break: Points::ZERO,
            won: 0,
            drawn: 0,
            lost: 0,
            byes: 0,
        })
        .collect();
    let games = || {
        rounds
            .iter()
            .flat_map(|r| &r.games)
            .filter(|g| g.first < players && g.second < players)
    };
    for r in rounds {
        if let Some(line) = r.bye.and_then(|b| lines.get_mut(b)) {
            line.byes += 1;
            line.points += format.bye_points();
        }
    }
    for g in games() {
        for seat in [g.first, g.second] {
            let Some(score) = g.score(seat) else { continue };
            let line = &mut lines[seat];
            line.points += score;
            match score {
                Points::ONE => line.won += 1,
                Points::HALF => line.drawn += 1,
                _ => line.lost += 1,
            }
        }
    }
    let total: Vec<Points> = lines.iter().map(|l| l.points).collect();
    let tie_break = TieBreak::of(format);
    for g in games().filter(|g| g.outcome.is_some()) {
        for seat in [g.first, g.second] {
            let theirs = total[g.opponent(seat)];
            lines[seat].tie_break += match (tie_break, g.score(seat)) {
                (TieBreak::Buchholz, _) => theirs,
                (TieBreak::SonnebornBerger, Some(Points::ONE)) => theirs,
                (TieBreak::SonnebornBerger, Some(Points::HALF)) => theirs.half(),
                (TieBreak::SonnebornBerger, _) => Points::ZERO,
            };
        }
    }
    lines.sort_by(|a, b| {
        (b.points, b.tie_break)
            .cmp(&(a.points, a.tie_break))
            .then(a.seat.cmp(&b.seat))
    });
    for i in 0..lines.len() {
        lines[i].place = match i.checked_sub(1).map(|j| &lines[j]) {
            Some(prev)
                if (prev.points, prev.tie_break) == (lines[i].points, lines[i].tie_break) =>
            {
                prev.place
            }
            _ => i + 1,
        };
    }
    lines
}

#[cfg(test)]
mod tests;
