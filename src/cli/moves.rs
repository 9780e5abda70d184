use super::{Source, out};
use crate::game::{self, Game};
use crate::play::Origin;
use crate::record;
use clap::Args;
use serde_json::json;

/// List the legal moves of a game, canonical, one per line: at its end,
/// or with --ply N after its first N moves (the moves that stand: a move
/// taken back by agreement is no move of the game).
///
/// Prints nothing when the game is over there. With --json, the whole
/// record's takebacks too: `taken_back` (each move taken back, with its
/// number and side), `takeback` (the side whose request waits for an
/// answer, or null) and `takebacks_asked` (each side's requests). Exits 1 when the record is
/// bad (the error names the line). Each game's folder in the source,
/// engine/src/games/GAME/, holds a finished example game (SLUG.toml) and
/// one still in play (SLUG-in-play.toml).
///
/// Examples:
///   pbem moves engine/src/games/mad/mad-in-play.toml
///   pbem moves engine/src/games/mad/mad-in-play.toml --from 12
///   pbem moves engine/src/games/embed/embed.toml --ply 10
///   printf '34/43,33/42\n20-11\n' | pbem moves --rules guerrilla-checkers -
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
    /// The moves after this many moves of the game (0: at the setup).
    /// Default: all of them.
    #[arg(long, value_name = "N")]
    ply: Option<usize>,
    #[command(flatten)]
    source: Source,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

impl Moves {
    pub fn execute(self) -> anyhow::Result<i32> {
        let Some(rec) = self.source.load_reported(&self.file) else {
            return Ok(1);
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
        let total = replayed.moves.len();
        let ply = self.ply.unwrap_or(total);
        let Some(pos) = replayed.positions.get(ply) else {
            eprintln!(
                "--ply {ply}: {} has only {total} move{}",
                self.file,
                if total == 1 { "" } else { "s" }
            );
            return Ok(2);
        };
        // Before its last move a game is in play (replay refuses a move
        // after the end); at the end, a resignation, a timeout or an
        // agreed draw may have ended it off the board.
        let end = if ply == total {
            replayed.end.clone()
        } else {
            game::outcome(pos)
        };
        let moves: Vec<String> = if end.is_some() {
            Vec::new()
        } else {
            game::listed_moves(pos)
                .into_iter()
                .filter(|(_, n)| filter.as_ref().is_none_or(|o| o.starts(n, geometry)))
                .map(|(_, n)| n.canonical(geometry))
                .collect()
        };
        if self.json {
            let mut v = json!({
                "file": self.file,
                "rules": G::RULES.slug(),
                "ply": ply,
                // A finished game has no side to move.
                "turn": end.is_none().then(|| G::RULES.side_name(pos.turn())),
                "result": record::replay::result_word::<G>(end.as_ref()),
                "moves": moves,
            });
            with_takebacks(&mut v, &replayed);
            out!("{v}");
        } else {
            for m in moves {
                out!("{m}");
            }
        }
        Ok(0)
    }
}

/// Adds the takebacks of the whole record to the JSON object `v`
/// (docs/src/formats/record.md, "Takebacks"): the moves taken back, the
/// request that waits for an answer, each side's requests.
pub(super) fn with_takebacks<G: Game>(v: &mut serde_json::Value, r: &record::Replayed<G>) {
    let rules = G::RULES;
    let taken: Vec<serde_json::Value> = r
        .taken_back
        .iter()
        .map(|b| {
            json!({
                "ply": b.ply,
                "side": rules.side_name(b.side),
                "move": b.notation.canonical(rules.geometry()),
            })
        })
        .collect();
    let asked: serde_json::Map<String, serde_json::Value> = r
        .takebacks_asked
        .iter()
        .map(|(side, n)| (rules.side_name(side).to_string(), json!(n)))
        .collect();
    if let Some(o) = v.as_object_mut() {
        o.insert("taken_back".into(), json!(taken));
        o.insert(
            "takeback".into(),
            json!(r.takeback.map(|s| rules.side_name(s))),
        );
        o.insert("takebacks_asked".into(), json!(asked));
    }
}
