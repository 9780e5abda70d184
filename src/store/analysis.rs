//! The bot's analysis of finished games: `DATA/analysis-queue/ID.toml`,
//! one per game whose analysis is still to be done and mailed (written in
//! the batch that ends the game, removed once its mails are committed),
//! and `DATA/analysis/ID.txt`, the analysis itself, complete or in part
//! (a long game is analysed over several polls). The text format is
//! documented in docs/src/formats/data.md, "The bot's analysis".

use super::{Store, StoreError, stable_hash, valid_id};
use crate::record::{Entry, Record};
use chrono::{DateTime, Utc};
use pbem_engine::bot::analyse::{Mark, Ply, capped};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::PathBuf;

/// The first line of an analysis file.
pub const HEADER: &str = "pbem-analysis 1";

/// A game waiting for its analysis: since when.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueuedAnalysis {
    pub queued: DateTime<Utc>,
}

/// A game's analysis as stored: what it was made of (the game's moves,
/// the budget and seed of each search) and one [`StoredPly`] a move, the
/// first `plies.len()` of `total`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAnalysis {
    pub id: String,
    /// [`moves_hash`] of the record analysed.
    pub moves: u64,
    /// Positions searched for each move.
    pub nodes: u64,
    pub seed: u64,
    /// The moves of the game.
    pub total: usize,
    pub plies: Vec<StoredPly>,
}

/// One move analysed (as [`Ply`], with the side's name owned).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredPly {
    pub ply: usize,
    pub side: String,
    pub played: String,
    pub best: String,
    /// The evaluations before and after the move, from the mover's side,
    /// in hundredths of a piece (beyond the evaluations' limit, a proven
    /// result).
    pub before: i32,
    pub after: i32,
    pub mark: Option<Mark>,
}

impl StoredPly {
    /// What the move lost against the best move (0 for the best).
    pub fn lost(&self) -> i32 {
        if self.played == self.best {
            0
        } else {
            (capped(self.before) - capped(self.after)).max(0)
        }
    }
}

impl From<&Ply> for StoredPly {
    fn from(p: &Ply) -> StoredPly {
        StoredPly {
            ply: p.ply,
            side: p.side.to_string(),
            played: p.played.clone(),
            best: p.best.clone(),
            before: p.before,
            after: p.after,
            mark: p.mark,
        }
    }
}

/// Why an analysis file does not read: its line (from 1) and what is
/// wrong there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct AnalysisError {
    pub line: usize,
    pub message: String,
}

/// What identifies the moves of `rec`: its rules, who moved first and
/// each move as written. An analysis of other moves is stale.
pub fn moves_hash(rec: &Record) -> u64 {
    let mut text = format!("{}\n{:?}\n", rec.rules.slug(), rec.first_side());
    for l in &rec.lines {
        if let Entry::Move(m) = &l.entry {
            text.push_str(m);
            text.push('\n');
        }
    }
    stable_hash(text.as_bytes())
}

impl StoredAnalysis {
    /// Whether every move is analysed.
    pub fn complete(&self) -> bool {
        self.plies.len() == self.total
    }

    /// Whether it is the analysis of `rec`'s moves as they are.
    pub fn of(&self, rec: &Record) -> bool {
        self.moves == moves_hash(rec)
    }

    /// The file's text.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "{HEADER}\ngame {}\nmoves {:016x}\nnodes {}\nseed {}\nplies {}\n",
            self.id, self.moves, self.nodes, self.seed, self.total
        );
        for p in &self.plies {
            let mark = p.mark.map_or("-", Mark::symbol);
            let _ = writeln!(
                s,
                "{} {} {} {} {} {} {mark}",
                p.ply, p.side, p.played, p.best, p.before, p.after
            );
        }
        s
    }

    /// Reads a file's text.
    ///
    /// # Errors
    /// The first line that does not read as the format says.
    pub fn parse(text: &str) -> Result<StoredAnalysis, AnalysisError> {
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
        let bad = |line: usize, message: String| AnalysisError { line, message };
        match lines.next() {
            Some((_, HEADER)) => {}
            Some((n, l)) => {
                return Err(bad(
                    n,
                    format!("'{l}' is not '{HEADER}': not an analysis file of this pbem"),
                ));
            }
            None => return Err(bad(1, "the file is empty".into())),
        }
        let mut field = |name: &str| -> Result<(usize, String), AnalysisError> {
            match lines.next() {
                Some((n, l)) => match l.strip_prefix(name).and_then(|v| v.strip_prefix(' ')) {
                    Some(v) => Ok((n, v.to_string())),
                    None => Err(bad(n, format!("'{l}' should be '{name} ...'"))),
                },
                None => Err(bad(0, format!("the file ends before its '{name}' line"))),
            }
        };
        let (_, id) = field("game")?;
        let number = |(n, v): (usize, String), hex: bool| {
            let read = if hex {
                u64::from_str_radix(&v, 16).ok()
            } else {
                v.parse().ok()
            };
            read.ok_or_else(|| bad(n, format!("'{v}' is not a number")))
        };
        let moves = number(field("moves")?, true)?;
        let nodes = number(field("nodes")?, false)?;
        let seed = number(field("seed")?, false)?;
        let total = usize::try_from(number(field("plies")?, false)?).unwrap_or(usize::MAX);
        let mut plies = Vec::new();
        for (n, l) in lines {
            if plies.len() == total {
                return Err(bad(n, format!("'{l}' is past the game's {total} moves")));
            }
            let p = ply_line(l, plies.len() + 1).map_err(|m| bad(n, m))?;
            plies.push(p);
        }
        Ok(StoredAnalysis {
            id,
            moves,
            nodes,
            seed,
            total,
            plies,
        })
    }
}

/// One move's line, the `want`th: `PLY SIDE PLAYED BEST BEFORE AFTER
/// MARK`.
fn ply_line(l: &str, want: usize) -> Result<StoredPly, String> {
    let words: Vec<&str> = l.split_whitespace().collect();
    let [ply, side, played, best, before, after, mark] = words[..] else {
        return Err(format!(
            "'{l}' should be seven words: ply, side, move, best move, evaluations before and after, mark"
        ));
    };
    if ply.parse::<usize>().ok() != Some(want) {
        return Err(format!(
            "'{ply}' should be move {want}: the moves go in order"
        ));
    }
    let score = |s: &str| {
        s.parse::<i32>()
            .map_err(|_| format!("'{s}' is not an evaluation (hundredths of a piece)"))
    };
    let mark = match mark {
        "-" => None,
        "?!" => Some(Mark::Inaccuracy),
        "?" => Some(Mark::Mistake),
        "??" => Some(Mark::Blunder),
        other => return Err(format!("'{other}' is not a mark: '-', '?!', '?' or '??'")),
    };
    Ok(StoredPly {
        ply: want,
        side: side.to_string(),
        played: played.to_string(),
        best: best.to_string(),
        before: score(before)?,
        after: score(after)?,
        mark,
    })
}

impl Store {
    fn analysis_path(&self, id: &str) -> Result<PathBuf, StoreError> {
        if !valid_id(id) {
            return Err(StoreError::BadId { id: id.to_string() });
        }
        Ok(self.root().join("analysis").join(format!("{id}.txt")))
    }

    /// Game `id`'s analysis file as it is, `None` when it has none.
    ///
    /// # Errors
    /// A bad id or an I/O error.
    pub fn analysis_text(&self, id: &str) -> Result<Option<String>, StoreError> {
        self.read_opt(&self.analysis_path(id)?)
    }

    /// # Errors
    /// A bad id or an I/O error.
    pub fn write_analysis(&self, id: &str, a: &StoredAnalysis) -> Result<(), StoreError> {
        self.write_file(&self.analysis_path(id)?, &a.to_text())
    }

    /// Game `id` in the queue of analyses to do, `None` when it is not.
    ///
    /// # Errors
    /// A bad id, an I/O error or a damaged file.
    pub fn queued_analysis(&self, id: &str) -> Result<Option<QueuedAnalysis>, StoreError> {
        self.read_toml(&self.checked("analysis-queue", id)?)
    }

    /// # Errors
    /// A bad id or an I/O error.
    pub fn queue_analysis(&self, id: &str, q: &QueuedAnalysis) -> Result<(), StoreError> {
        self.write_toml(&self.checked("analysis-queue", id)?, q)
    }

    /// # Errors
    /// A bad id or an I/O error.
    pub fn unqueue_analysis(&self, id: &str) -> Result<(), StoreError> {
        self.remove_file(&self.checked("analysis-queue", id)?)
    }

    /// The games waiting for their analysis, sorted by id.
    ///
    /// # Errors
    /// When the folder cannot be read.
    pub fn queued_analysis_ids(&self) -> Result<Vec<String>, StoreError> {
        self.ids_in("analysis-queue")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> StoredAnalysis {
        StoredAnalysis {
            id: "embed-k2".into(),
            moves: 0x0123_4567_89ab_cdef,
            nodes: 20_000,
            seed: 0,
            total: 3,
            plies: vec![
                StoredPly {
                    ply: 1,
                    side: "black".into(),
                    played: "17x41".into(),
                    best: "45-36".into(),
                    before: 51,
                    after: -30,
                    mark: Some(Mark::Inaccuracy),
                },
                StoredPly {
                    ply: 2,
                    side: "red".into(),
                    played: "27/36,28/37".into(),
                    best: "27/36,28/37".into(),
                    before: 9_997,
                    after: 9_997,
                    mark: None,
                },
            ],
        }
    }

    #[test]
    fn an_analysis_reads_back_as_written() {
        let a = example();
        let text = a.to_text();
        assert!(text.starts_with("pbem-analysis 1\ngame embed-k2\nmoves 0123456789abcdef\n"));
        assert!(text.contains("\n1 black 17x41 45-36 51 -30 ?!\n"), "{text}");
        assert_eq!(StoredAnalysis::parse(&text), Ok(a.clone()));
        assert!(!a.complete());
        assert_eq!(a.plies[0].lost(), 81);
        assert_eq!(a.plies[1].lost(), 0);
    }

    #[test]
    fn a_damaged_analysis_says_where() {
        let text = example().to_text();
        let cases = [
            (String::new(), 1, "empty"),
            (
                text.replace("pbem-analysis 1", "pbem-analysis 9"),
                1,
                "not an analysis",
            ),
            (
                text.replace("nodes 20000", "nodes many"),
                4,
                "'many' is not a number",
            ),
            (text.replace("2 red", "3 red"), 8, "should be move 2"),
            (text.replace(" ?!", " !!"), 7, "'!!' is not a mark"),
            (text.replace(" -30 ", " x "), 7, "'x' is not an evaluation"),
            (
                format!("{text}3 black 1-2 1-2 0 0 -\n4 red 1-2 1-2 0 0 -\n"),
                10,
                "past the game's 3",
            ),
            (
                text.lines().take(3).collect::<Vec<_>>().join("\n"),
                0,
                "before its 'nodes'",
            ),
        ];
        for (bad, line, says) in cases {
            let e = StoredAnalysis::parse(&bad).unwrap_err();
            assert_eq!(e.line, line, "{e}");
            assert!(e.to_string().contains(says), "{e}");
        }
    }

    #[test]
    fn the_queue_and_the_analysis_go_through_the_store() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let q = QueuedAnalysis {
            queued: "2026-11-25T10:00:00Z".parse().unwrap(),
        };
        store.queue_analysis("embed-k2", &q).unwrap();
        assert_eq!(store.queued_analysis_ids().unwrap(), ["embed-k2"]);
        assert_eq!(store.queued_analysis("embed-k2").unwrap(), Some(q));
        store.write_analysis("embed-k2", &example()).unwrap();
        let text = store.analysis_text("embed-k2").unwrap().unwrap();
        assert_eq!(StoredAnalysis::parse(&text), Ok(example()));
        store.unqueue_analysis("embed-k2").unwrap();
        assert!(store.queued_analysis_ids().unwrap().is_empty());
        assert!(store.analysis_text("../x").is_err());
        assert_eq!(store.analysis_text("mad-none").unwrap(), None);
    }
}
