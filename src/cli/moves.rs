use super::{Source, out};
use crate::game::{self, Game};
use crate::notation::{self, Notation};
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
            Some(f) => match parse_origin(f, geometry) {
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
                .filter(|(_, n)| match (&filter, n) {
                    (None, _) => true,
                    (Some(Origin::Square(s)), Notation::Path(p)) => p.from == *s,
                    (Some(Origin::Square(s)), Notation::Stones(points)) => {
                        points.first().map(|p| geometry.point_square(*p)) == Some(*s)
                    }
                    (Some(Origin::Point(q)), Notation::Stones(points)) => points.first() == Some(q),
                    (Some(Origin::Point(_)), Notation::Path(_)) => false,
                })
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

enum Origin {
    Square(crate::geom::Sq),
    Point(crate::geom::Point),
}

fn parse_origin(text: &str, geometry: crate::geom::Geometry) -> Result<Origin, String> {
    if text.contains('/') {
        return match notation::parse(text, geometry) {
            Ok(Notation::Stones(p)) if p.len() == 1 => Ok(Origin::Point(p[0])),
            Ok(_) => Err("give one point, like 27/36".into()),
            Err(e) => Err(e.to_string()),
        };
    }
    match text.trim().parse::<u32>() {
        Ok(n) if geometry.contains_number(n) => Ok(Origin::Square(crate::geom::Sq((n - 1) as u8))),
        Ok(n) => Err(format!(
            "there is no square {n}: squares are 1-{}",
            geometry.squares()
        )),
        Err(_) => Err("give a square number, like 22".into()),
    }
}
