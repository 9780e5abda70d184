//! The bot: a game-playing search for all eight games, pure
//! (no I/O; a time budget reads [`std::time::Instant`], a node budget no
//! clock at all).
//!
//! - [`choose`]: the move the bot plays in a position, within
//!   [`Limits`] (a time or node budget and a level), seeded: with a node
//!   budget the same seed gives the same move every time.
//! - [`suggest`]: the same at the end of a record, for any game at run
//!   time (dispatch on the record's [`Rules`](crate::rules::Rules)), with the move in
//!   canonical notation: what `pbem suggest` prints.
//! - [`arena`]: games between players (the bot at a level, plain UCT,
//!   uniformly random), for `pbem match` and the strength benchmark.
//!
//! The search (`search.rs`) is alpha-beta with iterative deepening, shared
//! by all games; each game's evaluation ([`Evaluate`]) lives in its own
//! folder, `games/<game>/eval.rs`.

pub mod analyse;
pub mod arena;
pub mod eval;
mod limits;
mod search;
mod uct;

pub use eval::{EVAL_LIMIT, Evaluate, WIN};
pub use limits::{BadLevel, Budget, Level, Limits};
pub use uct::PLAYOUT_PLIES;

use crate::game::{self, End};
use crate::record::{self, Record, RecordError};
use limits::Clock;
use std::fmt;
use std::time::Duration;

/// The move the bot chose, and what the search behind it saw.
#[derive(Clone, Copy, Debug)]
pub struct Choice<M> {
    pub mv: M,
    /// The move's score for the side to move, in hundredths of a piece;
    /// beyond [`EVAL_LIMIT`] a proven result: `WIN - n` wins in `n`
    /// moves, `-(WIN - n)` loses in `n`.
    pub score: i32,
    /// The depth of the last iteration of the search (0: the only legal
    /// move, played without a search).
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// Wall time spent.
    pub think: Duration,
}

impl<M> Choice<M> {
    /// "wins in 3" / "loses in 2" for a proven result.
    pub fn proven(&self) -> Option<String> {
        if self.score > EVAL_LIMIT {
            Some(format!("wins in {}", WIN - self.score))
        } else if self.score < -EVAL_LIMIT {
            Some(format!("loses in {}", WIN + self.score))
        } else {
            None
        }
    }
}

/// The move the bot plays in `pos` within `limits`, or `None` when the
/// game is over there (decided, or no legal move). `seed` orders the
/// moves before the search, so equally good moves vary from seed to
/// seed; with [`Budget::Nodes`] the result depends on nothing else.
pub fn choose<G: Evaluate>(pos: &G, limits: &Limits, seed: u64) -> Option<Choice<G::Move>> {
    let clock = Clock::start(limits.budget());
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    match moves.len() {
        0 => None,
        1 => Some(Choice {
            mv: moves[0],
            score: 0,
            depth: 0,
            nodes: 0,
            think: clock.elapsed(),
        }),
        _ => Some(searched(pos, moves, clock, seed, None).0),
    }
}

/// [`choose`], searching even an only move, with `played` (a legal move
/// there) searched first at every iteration: the bot's choice, and the
/// exact score of `played` at the depth of that choice (for the analysis,
/// [`analyse`]).
pub(crate) fn weigh<G: Evaluate>(
    pos: &G,
    limits: &Limits,
    seed: u64,
    played: G::Move,
) -> Option<(Choice<G::Move>, Option<i32>)> {
    let clock = Clock::start(limits.budget());
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    (!moves.is_empty()).then(|| searched(pos, moves, clock, seed, Some(played)))
}

/// The search over `moves` (the legal moves of `pos`, at least one),
/// with `first` searched first at every depth: the choice, and the exact
/// score of `first`.
fn searched<G: Evaluate>(
    pos: &G,
    mut moves: Vec<G::Move>,
    clock: Clock,
    seed: u64,
    first: Option<G::Move>,
) -> (Choice<G::Move>, Option<i32>) {
    // A stable start (the order of the generator is the game's), then the
    // seed's shuffle.
    let mut rng = fastrand::Rng::with_seed(seed);
    rng.shuffle(&mut moves);
    let mut search = search::Search::new(clock);
    let found = match first {
        Some(f) => search.run_with_first(pos, moves, f),
        None => search.run(pos, moves),
    };
    let choice = Choice {
        mv: found.mv,
        score: found.score,
        depth: found.depth,
        nodes: found.nodes,
        think: clock.elapsed(),
    };
    (choice, found.first)
}

/// The bot's move at the end of a record, in canonical notation.
#[derive(Clone, Debug)]
pub struct Suggestion {
    /// The move, canonical (`game::canonical`), as `pbem moves` lists it.
    pub text: String,
    /// The side to move, by the game's name for it.
    pub side: &'static str,
    /// How many legal moves there were to choose from.
    pub legal: usize,
    pub choice: Choice<()>,
}

/// Why there is no move to suggest.
#[derive(Clone, Debug)]
pub enum SuggestError {
    /// The record does not replay.
    Record(RecordError),
    /// The game is over: decided on the board, or ended off it (a
    /// resignation, a timeout, an agreed draw).
    Over(End),
}

impl fmt::Display for SuggestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SuggestError::Record(e) => write!(f, "{e}"),
            SuggestError::Over(end) => write!(
                f,
                "the game is over ({}): there is no move to suggest",
                end.reason
            ),
        }
    }
}

impl std::error::Error for SuggestError {}

/// The bot's move in `record`'s final position: the dynamic-dispatch
/// entry (any game, by the record's [`Rules`](crate::rules::Rules)).
///
/// # Errors
/// [`SuggestError::Record`] when the record does not replay,
/// [`SuggestError::Over`] when the game is over.
pub fn suggest(record: &Record, limits: &Limits, seed: u64) -> Result<Suggestion, SuggestError> {
    crate::with_game!(record.rules, G => suggest_in::<G>(record, limits, seed))
}

fn suggest_in<G: Evaluate>(
    record: &Record,
    limits: &Limits,
    seed: u64,
) -> Result<Suggestion, SuggestError> {
    let replayed = record::replay::<G>(record).map_err(SuggestError::Record)?;
    if let Some(end) = replayed.end.clone() {
        return Err(SuggestError::Over(end));
    }
    let pos = replayed.position();
    let over = || SuggestError::Over(game::outcome(pos).unwrap_or_else(|| End::draw("over")));
    let legal = pos.count_moves();
    let c = choose(pos, limits, seed).ok_or_else(over)?;
    Ok(Suggestion {
        text: game::canonical(pos, c.mv),
        side: game::side_name::<G>(pos.turn()),
        legal,
        choice: Choice {
            mv: (),
            score: c.score,
            depth: c.depth,
            nodes: c.nodes,
            think: c.think,
        },
    })
}
