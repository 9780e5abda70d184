use super::{Source, out};
use crate::record::{self, Record, RecordError};
use clap::Args;
use serde_json::json;

/// Replay game records and check every move and the result.
///
/// Prints `FILE: ok (N moves, RESULT)` for each good file and
/// `FILE:LINE: what is wrong` for each bad one; exits 0 when all are good,
/// 1 otherwise. Every file is checked even after a bad one.
///
/// Examples:
///   pbem validate games/*.toml games/in-play/*.toml
///   printf 'L14-28\n49-42:2\n' | pbem validate --rules mad --first black -
///   printf '2x1\n21x29\n' | pbem validate --rules mad-rooks -
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Validate {
    /// Record files (`-` reads standard input).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<String>,
    #[command(flatten)]
    source: Source,
    /// Print one JSON object per file instead of text.
    #[arg(long)]
    json: bool,
}

/// What validating one file found.
pub struct Checked {
    pub moves: usize,
    pub result: &'static str,
    /// The result as a value (`None`: in play), for words of its own.
    pub outcome: Option<crate::game::Outcome>,
    pub reason: Option<String>,
}

/// Reads and replays one record.
///
/// # Errors
/// The first error in the file, with its line.
pub fn check(rec: &Record) -> Result<Checked, RecordError> {
    crate::with_game!(rec.rules, G => {
        let r = record::replay::<G>(rec)?;
        Ok(Checked {
            moves: r.moves.len(),
            result: r.result(),
            outcome: r.end.as_ref().map(|e| e.outcome),
            reason: r.end.as_ref().map(|e| e.reason.clone()),
        })
    })
}

impl Validate {
    pub fn execute(self) -> anyhow::Result<i32> {
        let mut bad = 0;
        for path in &self.files {
            let file = if path == "-" { "stdin" } else { path.as_str() };
            let checked = self.source.load(path).and_then(|rec| check(&rec));
            match (&checked, self.json) {
                (Ok(c), false) => out!("{file}: ok ({} moves, {})", c.moves, c.result),
                (Err(e), false) => out!("{e}"),
                (Ok(c), true) => out!(
                    "{}",
                    json!({"file": file, "ok": true, "moves": c.moves, "result": c.result, "reason": c.reason})
                ),
                (Err(e), true) => out!(
                    "{}",
                    json!({"file": file, "ok": false, "line": e.line, "error": e.message})
                ),
            }
            if checked.is_err() {
                bad += 1;
            }
        }
        Ok(if bad == 0 { 0 } else { 1 })
    }
}
