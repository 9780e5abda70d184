//! The bot's search: negamax alpha-beta with iterative deepening over the
//! game's complete moves ([`Game::each_move`]: Guerrilla Checkers' pairs,
//! Toroidal chains, M.A.D.'s partial moves and lunges are each one move,
//! as the rules define a move), ordered by the static evaluation of the
//! position after the move, killer moves and a history table, and scored
//! at the horizon by the game's [`Evaluate`].
//!
//! Why alpha-beta for all eight: these are two-player, perfect-information
//! games of material and races, where one capture or one step forward
//! decides and a cheap evaluation (material, progress, score) is reliable.
//! Random playouts, the alternative, take long to finish here (pieces
//! shuffle back and forth) and say little about such positions; measured
//! against plain UCT at the same time (docs/src/players/bot.md), alpha-beta
//! wins every game.

use super::eval::{EVAL_LIMIT, Evaluate, WIN};
use super::limits::Clock;
use crate::game::{Game, Outcome};
use std::collections::HashMap;

/// Deeper than any search gets in the budgets used.
const MAX_DEPTH: u32 = 64;

/// What a search found.
#[derive(Clone, Copy, Debug)]
pub struct Found<M> {
    pub mv: M,
    /// The score of the move for the side to move (`WIN - n`: a win in
    /// `n` moves).
    pub score: i32,
    /// The depth of the deepest iteration finished (or begun and used).
    pub depth: u32,
    pub nodes: u64,
    /// The exact score of the move searched first at every iteration
    /// ([`Search::first`]), in the iteration the result comes from.
    pub first: Option<i32>,
}

pub(crate) struct Search<G: Evaluate> {
    clock: Clock,
    nodes: u64,
    stopped: bool,
    /// A move to search first at every iteration, with the whole window:
    /// its exact score beside the best move's, at the same depth (the
    /// analysis: the move played against the best).
    first: Option<G::Move>,
    /// Its score in the last iteration, when it was searched.
    first_score: Option<i32>,
    killers: Vec<[Option<G::Move>; 2]>,
    history: HashMap<G::Move, u32>,
}

/// The score of a finished game for the side to move in `pos`, `ply`
/// moves from the root.
fn terminal<G: Game>(pos: &G, outcome: Outcome, ply: usize) -> i32 {
    match outcome {
        Outcome::Draw => 0,
        Outcome::Win(s) if s == pos.turn() => WIN - ply as i32,
        Outcome::Win(_) => -(WIN - ply as i32),
    }
}

impl<G: Evaluate> Search<G> {
    pub(crate) fn new(clock: Clock) -> Search<G> {
        Search {
            clock,
            nodes: 0,
            stopped: false,
            first: None,
            first_score: None,
            killers: vec![[None; 2]; MAX_DEPTH as usize + 2],
            history: HashMap::new(),
        }
    }

    /// Searches `moves` (the legal moves of `pos`, at least one, in the
    /// order that breaks ties) deeper and deeper until the clock says stop.
    pub(crate) fn run(&mut self, pos: &G, moves: Vec<G::Move>) -> Found<G::Move> {
        let mut root: Vec<(G::Move, i32)> = moves.into_iter().map(|m| (m, 0)).collect();
        let mut best = Found {
            mv: root[0].0,
            score: 0,
            depth: 0,
            nodes: 0,
            first: None,
        };
        for depth in 1..=MAX_DEPTH {
            let (mv, score, complete) = self.root_iteration(pos, &mut root, depth);
            if complete || score > best.score || depth == 1 {
                best = Found {
                    mv,
                    score,
                    depth,
                    nodes: 0,
                    first: self.first_score.or(best.first),
                };
            }
            // A proven result needs no deeper look.
            if !complete || score.abs() > EVAL_LIMIT || !self.clock.room_for_more(self.nodes) {
                break;
            }
        }
        best.nodes = self.nodes;
        best
    }

    /// [`Search::run`], searching `first` (one of `moves`) first at every
    /// iteration: its exact score comes back in [`Found::first`].
    pub(crate) fn run_with_first(
        &mut self,
        pos: &G,
        moves: Vec<G::Move>,
        first: G::Move,
    ) -> Found<G::Move> {
        self.first = Some(first);
        self.run(pos, moves)
    }

    /// One iteration at the root: scores each move (the best of the last
    /// iteration first, or [`Search::first`]), sorts them for the next.
    /// Returns the best move, its score and whether every move was
    /// searched.
    fn root_iteration(
        &mut self,
        pos: &G,
        root: &mut [(G::Move, i32)],
        depth: u32,
    ) -> (G::Move, i32, bool) {
        if let Some(at) = self
            .first
            .and_then(|f| root.iter().position(|(m, _)| *m == f))
        {
            root[..=at].rotate_right(1);
        }
        self.first_score = None;
        let mut alpha = -WIN - 1;
        let mut best = root[0].0;
        let mut searched = 0;
        for (mv, scored) in root.iter_mut() {
            let mut child = pos.clone();
            child.play_unchecked(*mv);
            let score = -self.negamax(&child, depth - 1, 1, -WIN - 1, -alpha);
            if self.stopped {
                break;
            }
            if searched == 0 && self.first == Some(*mv) {
                // Searched with the whole window: its exact score.
                self.first_score = Some(score);
            }
            searched += 1;
            *scored = score;
            if score > alpha {
                alpha = score;
                best = *mv;
            }
        }
        let complete = searched == root.len();
        if complete {
            // Stable: equal scores keep the seeded order.
            root.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        } else {
            // Searched moves first, by score, the rest after.
            root[..searched].sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        }
        (best, alpha, complete)
    }

    fn negamax(&mut self, pos: &G, depth: u32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.clock.out(self.nodes) {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        if let Some(end) = pos.decided() {
            return terminal(pos, end.outcome, ply);
        }
        if depth == 0 {
            return pos.evaluate_for(pos.turn());
        }
        let mut moves = Vec::new();
        pos.generate(&mut moves);
        if moves.is_empty() {
            // docs/src/rules/common.md, "Common ground": no legal move loses.
            return -(WIN - ply as i32);
        }
        let children = self.ordered(pos, moves, depth, ply);
        let mut best = -WIN - 1;
        for (mv, child) in children {
            let child = child.unwrap_or_else(|| {
                let mut c = pos.clone();
                c.play_unchecked(mv);
                c
            });
            let score = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                self.cut(mv, depth, ply);
                break;
            }
        }
        best
    }

    /// The moves in the order to search them: killers, then by history;
    /// far from the horizon, by the evaluation after the move (the
    /// children are made then, and returned to be searched).
    fn ordered(
        &self,
        pos: &G,
        moves: Vec<G::Move>,
        depth: u32,
        ply: usize,
    ) -> Vec<(G::Move, Option<G>)> {
        let killers = self.killers[ply.min(MAX_DEPTH as usize)];
        let bonus = |m: &G::Move| -> i64 {
            let k = if killers[0] == Some(*m) {
                2_000_000_000
            } else if killers[1] == Some(*m) {
                1_000_000_000
            } else {
                0
            };
            k + i64::from(self.history.get(m).copied().unwrap_or(0))
        };
        let me = pos.turn();
        let mut keyed: Vec<(i64, G::Move, Option<G>)> = moves
            .into_iter()
            .map(|m| {
                if depth >= 2 {
                    let mut c = pos.clone();
                    c.play_unchecked(m);
                    let v = match c.decided() {
                        Some(end) => -terminal(&c, end.outcome, 0),
                        None => c.evaluate_for(me),
                    };
                    (i64::from(v) * 4096 + bonus(&m) / 1_000_000, m, Some(c))
                } else {
                    (bonus(&m), m, None)
                }
            })
            .collect();
        keyed.sort_by_key(|(k, _, _)| std::cmp::Reverse(*k));
        keyed.into_iter().map(|(_, m, c)| (m, c)).collect()
    }

    /// Remembers a move that cut off the search.
    fn cut(&mut self, mv: G::Move, depth: u32, ply: usize) {
        let k = &mut self.killers[ply.min(MAX_DEPTH as usize)];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        let h = self.history.entry(mv).or_insert(0);
        *h = h.saturating_add(depth * depth);
    }
}
