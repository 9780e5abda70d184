//! Swiss pairing: each round paired from the results of the rounds
//! before ("Swiss pairs by score group with no repeat pairing
//! and balances who moves first").
//!
//! 1. **Ranking.** Players are ranked by points, then by seat (the order
//!    they were entered: the seeding).
//! 2. **The bye.** With an odd number of players, the lowest-ranked player
//!    who has not had a bye sits the round out (and scores a win's points,
//!    [`super::Format::bye_points`]).
//! 3. **Pairs.** The highest-ranked unpaired player meets, of those they
//!    have not met, first the player half their score group below them
//!    (the top half of a score group meets its bottom half, as in the
//!    Dutch system), then the rest of the bottom half, then the top half
//!    from the bottom up, then the players of lower score groups in rank
//!    order. When a choice leaves the rest of the round unpairable
//!    without a repeat, the next choice is tried (and, for the bye, the
//!    next player up), so a round is paired whenever a pairing without
//!    repeats exists.
//!    A pair of two players who must both move first (or both second,
//!    rule 4) is avoided while any pairing of the round avoids it.
//! 4. **Who moves first.** A player who has moved second two more times
//!    than first, or in both of their last two games, moves first (and
//!    the other way round); else, of a pair, the player who has moved
//!    first less often (firsts minus seconds); when equal, the one who moved second
//!    in the latest round where the two differ; when their sides were the
//!    same every round, the higher-ranked player has the side they did not
//!    have last; with no game behind them (the first round), on
//!    odd-numbered pairs (1, 3, ... in rank order) the higher-ranked
//!    player moves first, on even-numbered ones the lower-ranked.

use super::PairingError;
use crate::points::Points;
use crate::{Game, Round, Seat};

/// What pairing needs to know of one player, from the rounds so far.
#[derive(Clone, Debug, Default)]
struct Past {
    points: Points,
    opponents: Vec<Seat>,
    /// Moved first (+1) or second (-1), round by round; 0 for a bye.
    sides: Vec<i8>,
    had_bye: bool,
}

/// The next round of a Swiss among `players` seats, after `rounds` (which
/// must all have ended; results still in play count as not yet scored).
/// `bye_points` is what a bye scores; the seats in `absent` (players who
/// dropped out) are not paired.
///
/// # Errors
/// Fewer than 2 players left, or no pairing without a repeat.
pub fn next_round(
    players: usize,
    rounds: &[Round],
    bye_points: Points,
    absent: &[Seat],
) -> Result<Round, PairingError> {
    let past = history(players, rounds, bye_points);
    let mut ranking: Vec<Seat> = (0..players).filter(|s| !absent.contains(s)).collect();
    if ranking.len() < 2 {
        return Err(PairingError::TooFew(ranking.len()));
    }
    ranking.sort_by(|&a, &b| past[b].points.cmp(&past[a].points).then(a.cmp(&b)));
    let number = rounds.len() + 1;
    let byes: Vec<Option<Seat>> = if ranking.len().is_multiple_of(2) {
        vec![None]
    } else {
        let mut c: Vec<Option<Seat>> = ranking
            .iter()
            .rev()
            .filter(|&&s| !past[s].had_bye)
            .map(|&s| Some(s))
            .collect();
        // Everyone has had one: the lowest-ranked sits out again.
        if c.is_empty() {
            c.extend(ranking.iter().rev().map(|&s| Some(s)));
        }
        c
    };
    for (strict, bye) in [true, false]
        .into_iter()
        .flat_map(|s| byes.iter().map(move |&b| (s, b)))
    {
        let rest: Vec<Seat> = ranking
            .iter()
            .copied()
            .filter(|&s| Some(s) != bye)
            .collect();
        let mut pairs = Vec::new();
        if pair(&rest, &past, strict, &mut pairs) {
            let games = pairs
                .into_iter()
                .enumerate()
                .map(|(board, (high, low))| sides(&past, high, low, board))
                .collect();
            return Ok(Round { games, bye });
        }
    }
    Err(PairingError::NoPairing(number))
}

impl Past {
    /// Moves first minus moves second.
    fn balance(&self) -> i32 {
        self.sides.iter().map(|&x| i32::from(x)).sum()
    }

    /// Whether the player must move first (`Some(true)`) or second in
    /// the next game: when they have moved second (first) two more times
    /// than first (second), or in both of their last two games.
    fn must_move_first(&self) -> Option<bool> {
        let played: Vec<i8> = self.sides.iter().copied().filter(|&x| x != 0).collect();
        let last_two = played.len() >= 2 && played[played.len() - 1] == played[played.len() - 2];
        match self.balance() {
            b if b <= -2 => Some(true),
            b if b >= 2 => Some(false),
            _ if last_two => Some(played[played.len() - 1] < 0),
            _ => None,
        }
    }
}

/// Each seat's points, opponents and sides over `rounds`.
fn history(players: usize, rounds: &[Round], bye_points: Points) -> Vec<Past> {
    let mut past = vec![Past::default(); players];
    for r in rounds {
        if let Some(b) = r.bye.filter(|&b| b < players) {
            past[b].points += bye_points;
            past[b].had_bye = true;
            past[b].sides.push(0);
        }
        for g in r
            .games
            .iter()
            .filter(|g| g.first < players && g.second < players)
        {
            for (seat, side) in [(g.first, 1), (g.second, -1)] {
                past[seat].opponents.push(g.opponent(seat));
                past[seat].sides.push(side);
                past[seat].points += g.score(seat).unwrap_or(Points::ZERO);
            }
        }
    }
    past
}

/// Pairs `rest` (in rank order) into `out` as (higher, lower) ranked,
/// with no repeat and, when `strict`, no two players who must both move
/// first (or both second); false when it cannot be done.
fn pair(rest: &[Seat], past: &[Past], strict: bool, out: &mut Vec<(Seat, Seat)>) -> bool {
    let Some((&top, others)) = rest.split_first() else {
        return true;
    };
    for opponent in candidates(top, others, past) {
        if past[top].opponents.contains(&opponent)
            || strict
                && past[top]
                    .must_move_first()
                    .is_some_and(|m| past[opponent].must_move_first() == Some(m))
        {
            continue;
        }
        let left: Vec<Seat> = others.iter().copied().filter(|&s| s != opponent).collect();
        out.push((top, opponent));
        if pair(&left, past, strict, out) {
            return true;
        }
        out.pop();
    }
    false
}

/// The order in which `top` (the highest-ranked unpaired player) looks
/// for an opponent among `others` (the rest, in rank order).
fn candidates(top: Seat, others: &[Seat], past: &[Past]) -> Vec<Seat> {
    let score = past[top].points;
    let group_len = others
        .iter()
        .take_while(|&&s| past[s].points == score)
        .count();
    // The group with `top` at its head has group_len + 1 players; its
    // bottom half starts half of that below the head.
    let group = group_len + 1;
    let half = group / 2;
    let mut order = Vec::with_capacity(others.len());
    if half >= 1 {
        order.extend(&others[half - 1..group_len]);
        order.extend(others[..half - 1].iter().rev());
    }
    order.extend(&others[group_len..]);
    order
}

/// The game of a pair, who moves first decided by rule 4 of the module's
/// doc; `board` counts pairs from 0 in rank order.
fn sides(past: &[Past], high: Seat, low: Seat, board: usize) -> Game {
    let (bh, bl) = (past[high].balance(), past[low].balance());
    let high_first = if let Some(m) = past[high].must_move_first() {
        m
    } else if let Some(m) = past[low].must_move_first() {
        !m
    } else if bh != bl {
        bh < bl
    } else {
        let (h, l) = (&past[high].sides, &past[low].sides);
        let latest = h.iter().rev().zip(l.iter().rev()).find(|(a, b)| a != b);
        match (latest, h.iter().rev().find(|&&x| x != 0)) {
            (Some((&a, &b)), _) => a < b,
            (None, Some(&last)) => last < 0,
            (None, None) => board.is_multiple_of(2),
        }
    };
    if high_first {
        Game::new(high, low)
    } else {
        Game::new(low, high)
    }
}

#[cfg(test)]
mod tests;
