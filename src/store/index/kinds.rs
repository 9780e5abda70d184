//! What the indexes hold of each file: a record's summary (what `pbem
//! games` lists) and a clock.

use super::Summary;
use crate::game::{PerSide, Side};
use crate::record::{Record, Verdict};
use crate::rules::Rules;
use crate::store::deadlines::parsed_clock;
use crate::store::{GameClock, StoreError, parse_record};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A game as `DATA/index/games.idx` holds it: what `pbem games` lists.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "GameLine", try_from = "GameLine")]
pub enum GameSummary {
    Game(GameFacts),
    /// A record that does not read or replay: why, naming its file and
    /// line.
    Damaged(String),
}

/// What a record that reads says of its game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameFacts {
    pub rules: Rules,
    /// The side that moved first.
    pub first: Side,
    pub players: PerSide<Option<String>>,
    /// The moves played.
    pub moves: usize,
    pub result: Verdict,
}

impl GameFacts {
    /// The facts of `rec`, with its moves and result as replayed when
    /// `replay`, else as it says them (one pbem wrote after replaying it).
    ///
    /// # Errors
    /// The first line that does not replay.
    fn of(rec: &Record, replay: bool) -> Result<GameFacts, crate::record::RecordError> {
        let facts = |moves, result| GameFacts {
            rules: rec.rules,
            first: rec.first_side(),
            players: rec.players.clone(),
            moves,
            result,
        };
        if let (false, Some((result, _))) = (replay, rec.result) {
            // The moves that stand: a takeback accepted took one back.
            let moves = crate::record::plies(&rec.lines);
            return Ok(facts(moves, result));
        }
        crate::with_game!(rec.rules, G => {
            let r = crate::record::replay::<G>(rec)?;
            Ok(facts(r.moves.len(), r.result()))
        })
    }

    /// The facts of `rec`, which pbem is about to write (after replaying
    /// it), as the index would read them from its text.
    ///
    /// # Errors
    /// The first line that does not replay.
    pub fn of_written(rec: &Record) -> Result<GameFacts, crate::record::RecordError> {
        GameFacts::of(rec, false)
    }

    /// The players by their sides' names, in the names' order.
    pub fn named_players(&self) -> BTreeMap<&'static str, &String> {
        self.players
            .given()
            .map(|(side, p)| (self.rules.side_name(side), p))
            .collect()
    }
}

impl GameSummary {
    /// The summary of record `id`, whose file holds `text` (replayed when
    /// `replay`, see [`GameFacts::of`]).
    fn of(id: &str, text: &str, replay: bool) -> GameSummary {
        let facts = parse_record(id, text).and_then(|rec| {
            GameFacts::of(&rec, replay).map_err(|source| StoreError::Record { source })
        });
        match facts {
            Ok(f) => GameSummary::Game(f),
            Err(e) => GameSummary::Damaged(e.to_string()),
        }
    }
}

impl Summary for GameSummary {
    const FOLDER: &'static str = "games";

    fn of_written(id: &str, text: &str) -> GameSummary {
        GameSummary::of(id, text, false)
    }

    fn of_written_known(id: &str, text: &str, known: Option<&GameFacts>) -> GameSummary {
        let Some(known) = known else {
            return GameSummary::of_written(id, text);
        };
        debug_assert_eq!(
            GameSummary::of_written(id, text),
            GameSummary::Game(known.clone()),
            "what a record says of its game, as written and as read back"
        );
        GameSummary::Game(known.clone())
    }

    fn of_found(id: &str, text: Result<String, StoreError>) -> GameSummary {
        match text {
            Ok(text) => GameSummary::of(id, &text, true),
            Err(e) => GameSummary::Damaged(e.to_string()),
        }
    }
}

/// [`GameSummary`] in an index's line: the game's rules, sides and
/// result in the words of its record.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
enum GameLine {
    Game {
        rules: String,
        first: String,
        players: BTreeMap<String, String>,
        moves: usize,
        result: String,
    },
    Damaged(String),
}

impl From<GameSummary> for GameLine {
    fn from(s: GameSummary) -> GameLine {
        match s {
            GameSummary::Damaged(e) => GameLine::Damaged(e),
            GameSummary::Game(f) => GameLine::Game {
                rules: f.rules.slug().to_string(),
                first: f.rules.side_name(f.first).to_string(),
                players: f
                    .named_players()
                    .into_iter()
                    .map(|(side, p)| (side.to_string(), p.clone()))
                    .collect(),
                moves: f.moves,
                result: f.result.word(f.rules).to_string(),
            },
        }
    }
}

impl TryFrom<GameLine> for GameSummary {
    type Error = String;

    fn try_from(l: GameLine) -> Result<GameSummary, String> {
        match l {
            GameLine::Damaged(e) => Ok(GameSummary::Damaged(e)),
            GameLine::Game {
                rules,
                first,
                players,
                moves,
                result,
            } => {
                // The slug, as written: no other spelling.
                let rules = Rules::ALL
                    .into_iter()
                    .find(|r| r.slug() == rules)
                    .ok_or_else(|| format!("no game {rules:?}"))?;
                let side = |name: &str| {
                    rules
                        .side_named(name)
                        .ok_or_else(|| format!("{} has no side {name:?}", rules.name()))
                };
                let mut by_side = PerSide::new(None, None);
                for (name, p) in players {
                    by_side[side(&name)?] = Some(p);
                }
                let result = Verdict::parse(rules, &result)
                    .ok_or_else(|| format!("no result {result:?}"))?;
                Ok(GameSummary::Game(GameFacts {
                    rules,
                    first: side(&first)?,
                    players: by_side,
                    moves,
                    result,
                }))
            }
        }
    }
}

/// A clock as `DATA/index/clocks.idx` holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClockSummary {
    Clock(GameClock),
    /// A clock file that does not read: why.
    Damaged(String),
}

impl Summary for ClockSummary {
    const FOLDER: &'static str = "clocks";

    fn of_written(id: &str, text: &str) -> ClockSummary {
        // Written by pbem just now (the write remembered it), or found in
        // a scan of the folder, which keeps nothing.
        let clock = parsed_clock(text, false).map_err(|source| StoreError::Parse {
            path: format!("clocks/{id}.toml"),
            source,
        });
        match clock {
            Ok(c) => ClockSummary::Clock(c),
            Err(e) => ClockSummary::Damaged(e.to_string()),
        }
    }

    fn of_found(id: &str, text: Result<String, StoreError>) -> ClockSummary {
        match text {
            Ok(text) => ClockSummary::of_written(id, &text),
            Err(e) => ClockSummary::Damaged(e.to_string()),
        }
    }
}
