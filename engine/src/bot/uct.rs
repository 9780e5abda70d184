//! The baseline the bot is measured against: plain UCT (Monte Carlo tree
//! search, UCB1 with c = √2) with uniformly random playouts, on the same
//! engine and the same budget, and knowing nothing of the game but its
//! rules. Playouts longer than [`PLAYOUT_PLIES`] count as draws.

use super::limits::Clock;
use crate::game::{Game, Outcome, Side};

/// A playout stops here and counts as a draw (some games can go on for
/// ever: towers that shuffle, checkers that engage back and forth).
pub const PLAYOUT_PLIES: usize = 200;

struct Node<M> {
    /// The move into this node (none at the root).
    mv: Option<M>,
    /// The side that played `mv`: the results here count for it.
    mover: Side,
    children: Vec<usize>,
    untried: Vec<M>,
    visits: u32,
    /// Wins for `mover`, draws counting a half.
    wins: f64,
}

/// What a UCT search found: the most visited move and the playouts run.
pub(crate) struct Searched<M> {
    pub mv: M,
    pub playouts: u64,
}

/// The result of a finished game for `pos`'s players, or `None` while
/// it is in play; `moves` gets the legal moves then.
fn ended<G: Game>(pos: &G, moves: &mut Vec<G::Move>) -> Option<Outcome> {
    if let Some(end) = pos.decided() {
        return Some(end.outcome);
    }
    moves.clear();
    pos.generate(moves);
    moves.is_empty().then(|| Outcome::Win(pos.turn().other()))
}

fn credit(outcome: Option<Outcome>, mover: Side) -> f64 {
    match outcome {
        Some(Outcome::Win(s)) if s == mover => 1.0,
        Some(Outcome::Win(_)) => 0.0,
        Some(Outcome::Draw) | None => 0.5,
    }
}

/// Runs UCT from `pos` (with `moves`, its legal moves, at least one)
/// until the clock says stop.
pub(crate) fn search<G: Game>(
    pos: &G,
    moves: Vec<G::Move>,
    clock: &Clock,
    rng: &mut fastrand::Rng,
) -> Searched<G::Move> {
    let mut tree = vec![Node {
        mv: None,
        mover: pos.turn().other(),
        children: Vec::new(),
        untried: moves,
        visits: 0,
        wins: 0.0,
    }];
    let mut playouts = 0u64;
    let mut buf = Vec::new();
    let mut path = Vec::new();
    loop {
        let mut state = pos.clone();
        path.clear();
        let mut at = 0;
        path.push(at);
        // Selection.
        while tree[at].untried.is_empty() && !tree[at].children.is_empty() {
            let ln = f64::from(tree[at].visits.max(1)).ln();
            at = *tree[at]
                .children
                .iter()
                .max_by(|&&a, &&b| ucb(&tree[a], ln).total_cmp(&ucb(&tree[b], ln)))
                .unwrap_or(&tree[at].children[0]);
            if let Some(m) = tree[at].mv {
                state.play_unchecked(m);
            }
            path.push(at);
        }
        // Expansion.
        if !tree[at].untried.is_empty() {
            let i = rng.usize(..tree[at].untried.len());
            let m = tree[at].untried.swap_remove(i);
            let mover = state.turn();
            state.play_unchecked(m);
            let untried = match ended(&state, &mut buf) {
                Some(_) => Vec::new(),
                None => buf.clone(),
            };
            tree.push(Node {
                mv: Some(m),
                mover,
                children: Vec::new(),
                untried,
                visits: 0,
                wins: 0.0,
            });
            let child = tree.len() - 1;
            tree[at].children.push(child);
            at = child;
            path.push(at);
        }
        let outcome = playout(state, &mut buf, rng);
        for &n in &path {
            tree[n].visits += 1;
            tree[n].wins += credit(outcome, tree[n].mover);
        }
        playouts += 1;
        if clock.spent(playouts) {
            break;
        }
    }
    let best = tree[0]
        .children
        .iter()
        .copied()
        .max_by_key(|&c| tree[c].visits)
        .unwrap_or(0);
    Searched {
        mv: tree[best].mv.unwrap_or_else(|| tree[0].untried[0]),
        playouts,
    }
}

fn ucb<M>(n: &Node<M>, ln_parent: f64) -> f64 {
    if n.visits == 0 {
        return f64::INFINITY;
    }
    let v = f64::from(n.visits);
    n.wins / v + (2.0 * ln_parent / v).sqrt()
}

/// Random moves to the end (or [`PLAYOUT_PLIES`]: `None`, a draw).
fn playout<G: Game>(
    mut state: G,
    buf: &mut Vec<G::Move>,
    rng: &mut fastrand::Rng,
) -> Option<Outcome> {
    for _ in 0..PLAYOUT_PLIES {
        if let Some(o) = ended(&state, buf) {
            return Some(o);
        }
        let m = buf[rng.usize(..buf.len())];
        state.play_unchecked(m);
    }
    None
}
