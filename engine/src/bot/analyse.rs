//! The bot's analysis of a game (`pbem analyse`): each position of a
//! record searched as the bot searches for its move, so that each move
//! played has beside it the evaluation before it, the bot's best move
//! there, and how much the move played lost against that best move.
//!
//! Each position before a move is searched once, as the bot searches for
//! its move, with the move played searched first at every depth and with
//! the whole window: the best move's score is the evaluation before the
//! move, the move played's exact score at the same depth the evaluation
//! after it, both from the mover's side. (Scores of two positions a move
//! apart, each searched on its own, differ by the parity of the depths
//! reached, and would mark moves the bot itself plays.) A move the bot
//! would have played itself loses nothing. A loss is
//! marked by [`Mark::of`]; the thresholds and how they were chosen are in
//! the book (docs/src/players/analysis.md).

use super::eval::{EVAL_LIMIT, Evaluate};
use super::{Limits, weigh};
use crate::game;
use crate::record::{self, Record, RecordError};

/// How much a move played lost, marked as chess players mark it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// `?!`: a little worse than the best move.
    Inaccuracy,
    /// `?`: clearly worse.
    Mistake,
    /// `??`: a move that throws away a piece and more, or a won game.
    Blunder,
}

/// A loss of at least this much (hundredths of a piece) is an
/// inaccuracy.
pub const INACCURACY: i32 = 60;
/// At least this much, a mistake.
pub const MISTAKE: i32 = 150;
/// At least this much, a blunder.
pub const BLUNDER: i32 = 300;

/// An evaluation as the analysis compares them: a proven result counts
/// as this much, however near, so that a slower win is no blunder; no
/// evaluation reaches it.
pub const DECIDED: i32 = EVAL_LIMIT + 1;

impl Mark {
    /// The mark of a move that lost `drop` (hundredths of a piece, the
    /// evaluations [`capped`]).
    pub fn of(drop: i32) -> Option<Mark> {
        match drop {
            d if d >= BLUNDER => Some(Mark::Blunder),
            d if d >= MISTAKE => Some(Mark::Mistake),
            d if d >= INACCURACY => Some(Mark::Inaccuracy),
            _ => None,
        }
    }

    /// `?!`, `?` or `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// "inaccuracy", "mistake", "blunder".
    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

/// A score as the analysis compares scores: evaluations as they are, a
/// proven result as [`DECIDED`] either way.
pub fn capped(score: i32) -> i32 {
    if score > EVAL_LIMIT {
        DECIDED
    } else if score < -EVAL_LIMIT {
        -DECIDED
    } else {
        score
    }
}

/// One move of the game, analysed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    /// Its number, from 1.
    pub ply: usize,
    /// Who played it, by the game's name for the side.
    pub side: &'static str,
    /// The move played, canonical (as `pbem moves` lists it).
    pub played: String,
    /// The bot's best move there, canonical.
    pub best: String,
    /// The evaluation before the move, from the mover's side (the best
    /// move's score, as the search gives it).
    pub before: i32,
    /// The evaluation after the move played, from the mover's side.
    pub after: i32,
    /// What the move played lost: `capped(before) - capped(after)`, none
    /// when it is the best move (at least 0).
    pub drop: i32,
    pub mark: Option<Mark>,
}

/// A game analysed: one [`Ply`] a move, and the positions searched.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub plies: Vec<Ply>,
    /// Positions the searches visited, in all.
    pub nodes: u64,
}

/// Analyses every move of `record`; calls `progress(done, of)` after
/// each position searched.
///
/// # Errors
/// The record does not replay.
pub fn analyse(
    record: &Record,
    limits: &Limits,
    seed: u64,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Analysis, RecordError> {
    let mut more = |done: usize, of: usize| {
        if done > 0 {
            progress(done, of);
        }
        true
    };
    analyse_from(record, limits, seed, 0, &mut more)
}

/// Analyses the moves of `record` from its `from`th on (those before
/// are left out: an analysis done in pieces), one after another while
/// `more(done, of)` says so: asked before each move, `done` counting the
/// moves analysed, those before `from` too. Each move is weighed on its
/// own (a search of its own, seeded alike), so an analysis done in pieces
/// is the same as one done at once.
///
/// # Errors
/// The record does not replay.
pub fn analyse_from(
    record: &Record,
    limits: &Limits,
    seed: u64,
    from: usize,
    more: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<Analysis, RecordError> {
    crate::with_game!(record.rules, G => analyse_as::<G>(record, limits, seed, from, more))
}

fn analyse_as<G: Evaluate>(
    record: &Record,
    limits: &Limits,
    seed: u64,
    from: usize,
    more: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<Analysis, RecordError> {
    let replayed = record::replay::<G>(record)?;
    let moves = replayed
        .moves
        .iter()
        .zip(&replayed.positions)
        .enumerate()
        .map(|(i, (n, pos))| {
            game::resolve(pos, n).map_err(|e| RecordError {
                file: record.file.clone(),
                line: 0,
                message: format!("move {}: {e:?}", i + 1),
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let from = from.min(moves.len());
    Ok(weigh_line(
        &replayed.positions[from],
        &moves[from..],
        from,
        limits,
        seed,
        more,
    ))
}

/// Analyses `moves` (each legal in turn) played from `start`; calls
/// `progress(done, of)` after each move.
pub fn analyse_line<G: Evaluate>(
    start: &G,
    moves: &[G::Move],
    limits: &Limits,
    seed: u64,
    progress: &mut dyn FnMut(usize, usize),
) -> Analysis {
    let mut more = |done: usize, of: usize| {
        if done > 0 {
            progress(done, of);
        }
        true
    };
    weigh_line(start, moves, 0, limits, seed, &mut more)
}

/// The analysis of `moves` played from `start`, the `before`th move of
/// its game, while `more(done, of)` says so (asked before each move,
/// and once after the last).
fn weigh_line<G: Evaluate>(
    start: &G,
    moves: &[G::Move],
    before: usize,
    limits: &Limits,
    seed: u64,
    more: &mut dyn FnMut(usize, usize) -> bool,
) -> Analysis {
    let mut plies = Vec::with_capacity(moves.len());
    let mut nodes = 0;
    let mut pos = start.clone();
    let of = before + moves.len();
    for (i, &played) in moves.iter().enumerate() {
        if !more(before + i, of) {
            break;
        }
        let Some((choice, exact)) = weigh(&pos, limits, seed, played) else {
            break;
        };
        nodes += choice.nodes;
        let before_score = choice.score;
        // The move played, searched at the same depth as the best.
        let after = if choice.mv == played {
            before_score
        } else {
            exact.unwrap_or(before_score)
        };
        let drop = (capped(before_score) - capped(after)).max(0);
        plies.push(Ply {
            ply: before + i + 1,
            side: game::side_name::<G>(pos.turn()),
            played: game::canonical(&pos, played),
            best: game::canonical(&pos, choice.mv),
            before: before_score,
            after,
            drop,
            mark: Mark::of(drop),
        });
        pos.play_unchecked(played);
    }
    if plies.len() == moves.len() {
        more(of, of);
    }
    Analysis { plies, nodes }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::{Budget, Level, WIN};
    use crate::game::Game;
    use crate::games::embed::Embed;

    #[test]
    fn a_loss_is_marked_by_the_thresholds() {
        assert_eq!(Mark::of(0), None);
        assert_eq!(Mark::of(INACCURACY - 1), None);
        assert_eq!(Mark::of(INACCURACY), Some(Mark::Inaccuracy));
        assert_eq!(Mark::of(MISTAKE), Some(Mark::Mistake));
        assert_eq!(Mark::of(BLUNDER), Some(Mark::Blunder));
        assert_eq!(
            [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder].map(Mark::symbol),
            ["?!", "?", "??"]
        );
        // A slower win loses nothing; a win given away is a blunder.
        assert_eq!(capped(WIN - 3) - capped(WIN - 7), 0);
        assert!(Mark::of(capped(WIN - 3) - capped(40)) == Some(Mark::Blunder));
        assert_eq!(capped(-WIN), -DECIDED);
    }

    #[test]
    fn the_bots_own_moves_lose_nothing_and_others_are_weighed_at_its_depth() {
        let limits = Limits {
            think: Budget::Nodes(3_000),
            level: Level::MAX,
        };
        // A game the bot plays against itself at the analysis's budget.
        let start = Embed::start(crate::game::first_sides::<Embed>()[0]);
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for _ in 0..12 {
            let Some(c) = crate::bot::choose(&pos, &limits, 0) else {
                break;
            };
            pos.play_unchecked(c.mv);
            moves.push(c.mv);
        }
        let a = analyse_line(&start, &moves, &limits, 0, &mut |_, _| {});
        assert_eq!(a.plies.len(), moves.len());
        assert!(a.nodes > 0);
        for p in &a.plies {
            if p.best == p.played {
                assert_eq!((p.drop, p.after), (0, p.before), "{p:?}");
            } else {
                // The search put the move played first: an exact score,
                // no better than the best's.
                assert!(p.after <= p.before, "{p:?}");
            }
            assert_eq!(p.mark, Mark::of(p.drop));
        }
        let same = analyse_line(&start, &moves, &limits, 0, &mut |_, _| {});
        assert_eq!(
            same.plies, a.plies,
            "the same every time with a node budget"
        );
    }

    #[test]
    fn an_analysis_in_pieces_is_the_analysis_at_once() {
        let text = include_str!("../games/embed/embed.toml");
        let rec = Record::parse("embed.toml", text).unwrap();
        let limits = Limits {
            think: Budget::Nodes(500),
            level: Level::MAX,
        };
        let whole = analyse(&rec, &limits, 3, &mut |_, _| {}).unwrap();
        let mut plies = Vec::new();
        while plies.len() < whole.plies.len() {
            let from = plies.len();
            let piece =
                analyse_from(&rec, &limits, 3, from, &mut |done, _| done < from + 4).unwrap();
            assert!(!piece.plies.is_empty());
            plies.extend(piece.plies);
        }
        assert_eq!(plies, whole.plies);
    }
}
