//! Games between players: the bot at a level, plain UCT with random
//! playouts (`uct.rs`) and a uniformly random player, at the same
//! budget per move, sides alternating from game to game. For `pbem
//! match` and the strength benchmark (`engine/benches/bot.rs`).
//!
//! Some games can go on for ever (towers or checkers shuffling back and
//! forth), so a game stops after a number of moves and counts as a draw.

use super::eval::Evaluate;
use super::limits::{Budget, Clock, Level, Limits};
use super::uct;
use crate::game::{self, Outcome, PerSide, Side};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// Matches stop here by default and count as drawn.
pub const MAX_PLIES: usize = 300;

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// The bot ([`super::choose`]) at a level.
    Bot(Level),
    /// Plain UCT with random playouts, the same budget.
    Uct,
    /// A uniformly random legal move.
    Random,
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Bot(l) => write!(f, "bot{l}"),
            Player::Uct => f.write_str("uct"),
            Player::Random => f.write_str("random"),
        }
    }
}

/// A player in text that names none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadPlayer(pub String);

impl fmt::Display for BadPlayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is no player (try 1, 2 or 3 for the bot's level, bot for level 3, uct, random)",
            self.0
        )
    }
}

impl std::error::Error for BadPlayer {}

impl FromStr for Player {
    type Err = BadPlayer;
    /// `1`, `2`, `3` (or `bot1`..`bot3`, `bot` for 3), `uct`, `random`.
    fn from_str(s: &str) -> Result<Player, BadPlayer> {
        let t = s.trim().to_ascii_lowercase();
        match t.as_str() {
            "uct" => Ok(Player::Uct),
            "random" => Ok(Player::Random),
            "bot" => Ok(Player::Bot(Level::MAX)),
            _ => t
                .strip_prefix("bot")
                .unwrap_or(&t)
                .parse::<Level>()
                .map(Player::Bot)
                .map_err(|_| BadPlayer(s.to_string())),
        }
    }
}

/// What one side spent over a game.
#[derive(Clone, Copy, Debug, Default)]
pub struct Spent {
    pub moves: u64,
    /// Positions visited (the bot) or playouts run (UCT).
    pub nodes: u64,
    pub think: Duration,
}

impl Spent {
    fn add(&mut self, other: Spent) {
        self.moves += other.moves;
        self.nodes += other.nodes;
        self.think += other.think;
    }
}

/// One move by `player` in `pos` (not over), and what it cost.
pub fn play_move<G: Evaluate>(
    player: Player,
    pos: &G,
    think: Budget,
    rng: &mut fastrand::Rng,
) -> Option<(G::Move, Spent)> {
    let seed = rng.u64(..);
    match player {
        Player::Bot(level) => {
            let c = super::choose(pos, &Limits { think, level }, seed)?;
            let spent = Spent {
                moves: 1,
                nodes: c.nodes,
                think: c.think,
            };
            Some((c.mv, spent))
        }
        Player::Uct | Player::Random => {
            let clock = Clock::start(think);
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                return None;
            }
            let (mv, nodes) = if player == Player::Random || moves.len() == 1 {
                (moves[rng.usize(..moves.len())], 0)
            } else {
                let s = uct::search(pos, moves, &clock, rng);
                (s.mv, s.playouts)
            };
            let spent = Spent {
                moves: 1,
                nodes,
                think: clock.elapsed(),
            };
            Some((mv, spent))
        }
    }
}

/// A game played to its end or to the ply limit.
#[derive(Clone, Debug)]
pub struct Played {
    /// `None`: stopped at the ply limit (a draw).
    pub outcome: Option<Outcome>,
    pub plies: usize,
    pub spent: PerSide<Spent>,
}

/// Plays one game from the start, `first` to move.
pub fn play_game<G: Evaluate>(
    players: PerSide<Player>,
    think: Budget,
    first: Side,
    seed: u64,
    max_plies: usize,
) -> Played {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut pos = G::start(first);
    let mut spent = PerSide::<Spent>::default();
    for ply in 0..max_plies {
        if let Some(end) = game::outcome(&pos) {
            return Played {
                outcome: Some(end.outcome),
                plies: ply,
                spent,
            };
        }
        let side = pos.turn();
        let Some((mv, s)) = play_move(players.0[side.index()], &pos, think, &mut rng) else {
            break;
        };
        spent.0[side.index()].add(s);
        pos.play_unchecked(mv);
    }
    Played {
        outcome: game::outcome(&pos).map(|e| e.outcome),
        plies: max_plies,
        spent,
    }
}

/// A match's score from the first player's side.
#[derive(Clone, Copy, Debug, Default)]
pub struct Score {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Games stopped at the ply limit (counted in `draws`).
    pub capped: u32,
    /// What each player spent: the first, the second.
    pub spent: [Spent; 2],
}

impl Score {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
    /// Points (a win 1, a draw ½) per game, 0 to 1.
    pub fn rate(&self) -> f64 {
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(self.games().max(1))
    }
    fn add(&mut self, other: &Score) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        self.capped += other.capped;
        for i in 0..2 {
            self.spent[i].add(other.spent[i]);
        }
    }
}

/// How a match is played.
#[derive(Clone, Copy, Debug)]
pub struct MatchSpec {
    pub players: [Player; 2],
    pub games: u32,
    pub think: Budget,
    pub seed: u64,
    pub max_plies: usize,
    /// Threads to play games on (each game on one).
    pub threads: usize,
}

/// Game `i` of a match: the first player takes side A in even games and
/// side B in odd ones; where the players choose who moves first, both
/// first sides come in turn. Returns the game from the first player's
/// side: 1 a win, ½ a draw, 0 a loss, and whether it was capped.
pub fn match_game<G: Evaluate>(spec: &MatchSpec, i: u32) -> Score {
    let swap = i % 2 == 1;
    let me = if swap { Side::B } else { Side::A };
    let players = if swap {
        PerSide::new(spec.players[1], spec.players[0])
    } else {
        PerSide::new(spec.players[0], spec.players[1])
    };
    let firsts = game::first_sides::<G>();
    let first = firsts[(i as usize / 2) % firsts.len()];
    let seed = spec
        .seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(u64::from(i));
    let played = play_game::<G>(players, spec.think, first, seed, spec.max_plies);
    let mut score = Score {
        spent: [
            played.spent.0[me.index()],
            played.spent.0[me.other().index()],
        ],
        ..Score::default()
    };
    match played.outcome {
        Some(Outcome::Win(s)) if s == me => score.wins = 1,
        Some(Outcome::Win(_)) => score.losses = 1,
        Some(Outcome::Draw) => score.draws = 1,
        None => {
            score.draws = 1;
            score.capped = 1;
        }
    }
    score
}

/// Plays a match on `spec.threads` threads (this one among them);
/// `each` sees every game's number and result as it ends (from any
/// thread). A thread the OS refuses is done without: its games go to the
/// others, at worst all to this one.
pub fn play_match<G: Evaluate>(spec: &MatchSpec, each: &(dyn Fn(u32, &Score) + Sync)) -> Score {
    let next = std::sync::atomic::AtomicU32::new(0);
    let run = || {
        let mut total = Score::default();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if i >= spec.games {
                break total;
            }
            let s = match_game::<G>(spec, i);
            each(i, &s);
            total.add(&s);
        }
    };
    let totals: Vec<Score> = std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for _ in 1..spec.threads.max(1) {
            match std::thread::Builder::new().spawn_scoped(scope, run) {
                Ok(h) => handles.push(h),
                Err(_) => break,
            }
        }
        let mine = run();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .chain([mine])
            .collect()
    });
    let mut score = Score::default();
    for t in &totals {
        score.add(t);
    }
    score
}
