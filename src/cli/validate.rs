use super::{Source, out};
use crate::record::{self, Record, RecordError, Verdict};
use clap::Args;
use serde_json::json;

/// Replay game records and check every move and the result.
///
/// Prints `FILE: ok (N moves, RESULT)` for each good file (N counts the
/// moves that stand: `; K taken back` follows when takebacks took some
/// back) and `FILE:LINE: what is wrong` for each bad one; exits 0 when
/// all are good, 1 otherwise. Every file is checked even after a bad one.
///
/// Examples:
///   pbem validate engine/src/games/*/*.toml
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
    /// The moves that stand (those taken back not counted).
    pub moves: usize,
    /// The moves taken back by agreement.
    pub taken_back: usize,
    /// How the moves end: in play, drawn or won.
    pub result: Verdict,
    /// The word a record holds for [`Checked::result`]: `*`, `draw`, a side.
    pub word: &'static str,
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
            taken_back: r.taken_back.len(),
            result: r.result(),
            word: r.result().word(rec.rules),
            reason: r.end.as_ref().map(|e| e.reason.clone()),
        })
    })
}

/// `e`, the error of reading `text` (the file `file`) as a record, with
/// a hint when the text is a bare move list: a record starts with its
/// settings (`rules = ...`), so a list of moves fails on its first line
/// with a TOML error that says nothing of `--rules`.
pub fn with_move_list_hint(mut e: RecordError, file: &str, text: &str) -> RecordError {
    if looks_like_move_list(text) {
        e.line = 0;
        let games = crate::rules::Rules::ALL.map(|r| r.slug()).join(", ");
        e.message = format!(
            "not a record but a bare move list: name its game, pbem validate --rules GAME {file} (GAME is one of {games}; the four New Millennium games need --first SIDE too)"
        );
    }
    e
}

/// Whether every line of `text` (blank lines and `#` comments aside) is a
/// move in pbem's notation, on the largest board, and there is one.
fn looks_like_move_list(text: &str) -> bool {
    let geometry = crate::geom::Geometry::TEN;
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .peekable();
    lines.peek().is_some() && lines.all(|l| crate::notation::parse(l, geometry).is_ok())
}

impl Validate {
    pub fn execute(self) -> anyhow::Result<i32> {
        let mut bad = 0;
        for path in &self.files {
            let file = if path == "-" { "stdin" } else { path.as_str() };
            let checked = self.source.load(path).and_then(|rec| check(&rec));
            match (&checked, self.json) {
                (Ok(c), false) if c.taken_back > 0 => out!(
                    "{file}: ok ({} moves, {}; {} taken back)",
                    c.moves,
                    c.word,
                    c.taken_back
                ),
                (Ok(c), false) => out!("{file}: ok ({} moves, {})", c.moves, c.word),
                (Err(e), false) => out!("{e}"),
                (Ok(c), true) => out!(
                    "{}",
                    json!({"file": file, "ok": true, "moves": c.moves, "taken_back": c.taken_back, "result": c.word, "reason": c.reason})
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
