//! pbem as a player: the bot's place in the server. Its search
//! is the engine's ([`pbem_engine::bot`]); here are its addresses (one per
//! level, so that each level has a rating of its own), and how long it
//! may think (`[bot]` in pbem.toml).
//!
//! The bot plays as `pbem+bot<LEVEL>@domain` (pbem's own address with a
//! tag): pbem drops any mail from it (anyone could write that From),
//! sends none to it, and its key is never mailed. The poll plays its
//! moves after committing the players' mail ([`crate::poll`]).

use pbem_engine::bot::{Budget, Level, Limits};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// `[bot]` in pbem.toml: how long the bot may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BotPolicy {
    /// Think time for one move at the top level, in milliseconds (levels
    /// 1 and 2 take 1/9 and 1/3 of it).
    pub think_ms: u64,
    /// The most a poll spends thinking for the bot, in milliseconds: the
    /// moves due past it wait for the next poll, so that a poll never
    /// stalls on bot games.
    pub poll_ms: u64,
    /// Instead of a think time, a number of positions per move: the same
    /// position then always gets the same move (for tests and replays).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// A fixed seed: the bot's choice among equally good moves then
    /// depends on the position alone, not on the game (with `nodes`,
    /// every game plays alike: for tests and replays).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Positions searched for each move of a finished game's analysis
    /// (at the top level); 0: no analysis. A budget of positions, not of
    /// time: the analysis is the same on any machine.
    pub analysis_nodes: u64,
}

impl Default for BotPolicy {
    fn default() -> BotPolicy {
        BotPolicy {
            think_ms: 2_000,
            poll_ms: 20_000,
            nodes: None,
            seed: None,
            analysis_nodes: ANALYSIS_NODES,
        }
    }
}

/// The default of `[bot] analysis_nodes`: the budget the marks of the
/// analysis were measured at (docs/src/players/analysis.md, "How the
/// marks were chosen"). A hundred moves take about two million positions,
/// a few seconds of one core.
pub const ANALYSIS_NODES: u64 = 20_000;

impl BotPolicy {
    /// The seed of the bot's `ply`th move in game `id`: from `[bot]
    /// seed` when set, else from the game (each game its own).
    pub fn seed(&self, id: &str, ply: usize) -> u64 {
        let base = match self.seed {
            Some(seed) => seed.to_string(),
            None => id.to_string(),
        };
        crate::store::stable_hash(format!("{base}/{ply}").as_bytes())
    }

    /// What the analysis of a finished game spends on each move, and its
    /// seed (`[bot] seed`, else 0: the same game always gets the same
    /// analysis); `None` when the analysis is off.
    pub fn analysis(&self) -> Option<(Limits, u64)> {
        (self.analysis_nodes > 0).then(|| {
            let limits = Limits {
                think: Budget::Nodes(self.analysis_nodes),
                level: Level::MAX,
            };
            (limits, self.seed.unwrap_or(0))
        })
    }

    /// What the bot at `level` may spend on one move.
    pub fn limits(&self, level: Level) -> Limits {
        Limits {
            think: match self.nodes {
                Some(n) => Budget::Nodes(n.max(1)),
                None => Budget::Time(Duration::from_millis(self.think_ms.max(1))),
            },
            level,
        }
    }
}

/// The tag of the bot's address at `level`: `bot2`.
pub fn tag(level: Level) -> String {
    format!("bot{}", level.number())
}

/// The level of a bot's address tag (`bot2`), if it is one.
pub fn level_of_tag(tag: &str) -> Option<Level> {
    let n = tag.strip_prefix("bot")?.parse::<u8>().ok()?;
    Level::new(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_has_its_tag_and_back() {
        for n in 1..=3 {
            let level = Level::new(n).unwrap();
            assert_eq!(level_of_tag(&tag(level)), Some(level));
        }
        assert_eq!(level_of_tag("bot4"), None);
        assert_eq!(level_of_tag("bot"), None);
        assert_eq!(level_of_tag("robot1"), None);
    }

    #[test]
    fn levels_share_the_think_time() {
        let p = BotPolicy {
            think_ms: 900,
            ..BotPolicy::default()
        };
        let low = p.limits(Level::new(1).unwrap()).budget();
        assert_eq!(low, Budget::Time(Duration::from_millis(100)));
        let nodes = BotPolicy {
            nodes: Some(9_000),
            ..p
        };
        assert_eq!(nodes.limits(Level::MAX).budget(), Budget::Nodes(9_000));
    }
}
