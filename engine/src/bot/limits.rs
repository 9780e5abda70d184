//! How long the bot may think: a time budget (read from the clock through
//! [`std::time::Instant`], the engine's only clock) or a node budget (no
//! clock at all: the same seed then gives the same move every time), and
//! the bot's level, a share of that budget.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// How much the bot may search for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Think this long (wall time).
    Time(Duration),
    /// Visit this many positions: deterministic, for tests and analysis.
    Nodes(u64),
}

/// A bot level: 1 (weakest) to 3 (the whole budget).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Level(u8);

impl Level {
    pub const MIN: Level = Level(1);
    pub const MAX: Level = Level(3);

    /// The level `n`, if it is one (1..=3).
    pub fn new(n: u8) -> Option<Level> {
        (1..=3).contains(&n).then_some(Level(n))
    }
    pub fn number(self) -> u8 {
        self.0
    }
    /// The share of the budget a level uses: 1/9, 1/3, all of it.
    fn divisor(self) -> u32 {
        match self.0 {
            1 => 9,
            2 => 3,
            _ => 1,
        }
    }
}

impl Default for Level {
    fn default() -> Level {
        Level::MAX
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// What the bot may spend on one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub think: Budget,
    pub level: Level,
}

impl Limits {
    /// The budget the level leaves.
    pub fn budget(&self) -> Budget {
        let d = self.level.divisor();
        match self.think {
            Budget::Time(t) => Budget::Time(t / d),
            Budget::Nodes(n) => Budget::Nodes((n / u64::from(d)).max(1)),
        }
    }
}

/// A bot level in text ("1".."3").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLevel(pub String);

impl fmt::Display for BadLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is no bot level (the levels are 1, 2 and 3)",
            self.0
        )
    }
}

impl std::error::Error for BadLevel {}

impl FromStr for Level {
    type Err = BadLevel;
    fn from_str(s: &str) -> Result<Level, BadLevel> {
        s.trim()
            .parse::<u8>()
            .ok()
            .and_then(Level::new)
            .ok_or_else(|| BadLevel(s.to_string()))
    }
}

/// Whether a search must stop: the budget, counted in nodes or watched on
/// the clock (read once every 64 nodes).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Clock {
    budget: Budget,
    start: Instant,
}

impl Clock {
    pub(crate) fn start(budget: Budget) -> Clock {
        Clock {
            budget,
            start: Instant::now(),
        }
    }
    /// Whether the search must stop after `nodes` nodes.
    pub(crate) fn out(&self, nodes: u64) -> bool {
        match self.budget {
            Budget::Nodes(n) => nodes >= n,
            Budget::Time(t) => nodes.is_multiple_of(64) && self.start.elapsed() >= t,
        }
    }
    /// Whether the search must stop after `count` playouts (the clock is
    /// read every time: a playout is long).
    pub(crate) fn spent(&self, count: u64) -> bool {
        match self.budget {
            Budget::Nodes(n) => count >= n,
            Budget::Time(t) => self.start.elapsed() >= t,
        }
    }
    /// Whether a new, deeper iteration is worth starting: one takes
    /// several times the last, so not past half the budget.
    pub(crate) fn room_for_more(&self, nodes: u64) -> bool {
        match self.budget {
            Budget::Nodes(n) => nodes < n / 2,
            Budget::Time(t) => self.start.elapsed() < t / 2,
        }
    }
    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}
