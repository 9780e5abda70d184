use super::{Source, out};
use crate::game::{self, Game, Origin};
use crate::record;
use clap::Args;
use serde_json::json;

/// List the legal moves at the end of a game, canonical, one per line.
///
/// Prints nothing when the game is over. Exits 1 when the record is bad
/// (the error names the line).
///
/// Examples:
///   pbem moves games/mad.toml
///   pbem moves games/mad.toml --from 12
///   pbem moves --rules guerrilla-checkers - < moves.txt
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Moves {
    /// The record (`-` reads standard input).
    #[arg(value_name = "FILE")]
    file: String,
    /// Only the moves from this square (for stones: starting at this point,
    /// like 27/36).
    #[arg(long, value_name = "SQUARE")]
    from: Option<String>,
    #[command(flatten)]
    source: Source,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

impl Moves {
    pub fn execute(self) -> anyhow::Result<i32> {
        let rec = match self.source.load(&self.file) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{e}");
                return Ok(1);
            }
        };
        crate::with_game!(rec.rules, G => self.list::<G>(&rec))
    }

    fn list<G: Game>(&self, rec: &record::Record) -> anyhow::Result<i32> {
        let geometry = G::RULES.geometry();
        let filter = match &self.from {
            None => None,
            Some(f) => match Origin::parse_for(f, G::RULES) {
                Ok(n) => Some(n),
                Err(msg) => {
                    eprintln!("--from {f}: {msg}");
                    return Ok(2);
                }
            },
        };
        let replayed = match record::replay::<G>(rec) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{e}");
                return Ok(1);
            }
        };
        let pos = replayed.position();
        let moves: Vec<String> = if replayed.end.is_some() {
            Vec::new()
        } else {
            game::listed_moves(pos)
                .into_iter()
                .filter(|(_, n)| filter.as_ref().is_none_or(|o| o.starts(n, geometry)))
                .map(|(_, n)| n.canonical(geometry))
                .collect()
        };
        if self.json {
            out!(
                "{}",
                json!({
                    "file": self.file,
                    "rules": G::RULES.slug(),
                    "ply": replayed.moves.len(),
                    "turn": G::RULES.side_name(pos.turn()),
                    "result": replayed.result(),
                    "moves": moves,
                })
            );
        } else {
            for m in moves {
                out!("{m}");
            }
        }
        Ok(0)
    }
}
