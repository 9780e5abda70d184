use super::{Source, out};
use crate::game::Game;
use crate::record;
use clap::Args;
use serde_json::json;

/// Draw the board of a game as ASCII (or SVG), after all moves or after
/// move N.
///
/// Examples:
///   pbem show engine/src/games/embed/embed.toml
///   pbem show engine/src/games/embed/embed.toml --ply 10 --seat red
///   pbem show engine/src/games/embed/embed.toml --ply 10 --svg
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Show {
    /// The record (`-` reads standard input).
    #[arg(value_name = "FILE")]
    file: String,
    /// Show the position after this many moves (0: the setup). Default:
    /// all of them.
    #[arg(long, value_name = "N")]
    ply: Option<usize>,
    /// Draw the board from this side's seat.
    #[arg(long, value_name = "SIDE")]
    seat: Option<String>,
    #[command(flatten)]
    source: Source,
    /// Print JSON (with the diagram as a string) instead of text; with
    /// --svg the JSON carries the SVG too.
    #[arg(long)]
    json: bool,
    /// Print the board as a self-contained SVG image instead: squares
    /// numbered, pieces as discs with their height or strength, the last
    /// move highlighted, turned for --seat as the ASCII board is.
    #[arg(long)]
    svg: bool,
}

impl Show {
    pub fn execute(self) -> anyhow::Result<i32> {
        let Some(rec) = self.source.load_reported(&self.file) else {
            return Ok(1);
        };
        crate::with_game!(rec.rules, G => self.draw::<G>(&rec))
    }

    fn draw<G: Game>(&self, rec: &record::Record) -> anyhow::Result<i32> {
        let replayed = match record::replay::<G>(rec) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{e}");
                return Ok(1);
            }
        };
        let total = replayed.moves.len();
        let ply = self.ply.unwrap_or(total);
        if ply > total {
            eprintln!(
                "--ply {ply}: {} has only {total} move{}",
                self.file,
                if total == 1 { "" } else { "s" }
            );
            return Ok(2);
        }
        let seat = match &self.seat {
            None => None,
            Some(s) => match G::RULES.side_named(s) {
                Some(side) => Some(side),
                None => {
                    eprintln!(
                        "--seat {s}: {} has the sides {} and {}",
                        G::RULES.name(),
                        G::RULES.info().sides[0],
                        G::RULES.info().sides[1]
                    );
                    return Ok(2);
                }
            },
        };
        let pos = &replayed.positions[ply];
        // Resignations, timeouts and agreed draws end a game off the board.
        let view = replayed.view(ply, seat);
        let last = view.last.clone();
        let diagram = pos.diagram(&view);
        let svg = self.svg.then(|| pbem_engine::board::svg(&pos.board(&view)));
        if self.json {
            let geometry = G::RULES.geometry();
            let mut v = json!({
                "file": self.file,
                "rules": G::RULES.slug(),
                "ply": ply,
                // A finished game has no side to move.
                "turn": view.ended.is_none().then(|| G::RULES.side_name(pos.turn())),
                "result": record::replay::result_word::<G>(view.ended.as_ref()),
                "last_move": last.map(|n| n.canonical(geometry)),
                "diagram": diagram,
                "svg": svg,
            });
            super::moves::with_takebacks(&mut v, &replayed);
            out!("{v}");
        } else if let Some(svg) = svg {
            out!("{}", svg.trim_end());
        } else {
            use std::io::Write as _;
            std::io::stdout().lock().write_all(diagram.as_bytes())?;
        }
        Ok(0)
    }
}
