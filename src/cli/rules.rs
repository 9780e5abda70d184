use super::out;
use crate::game::{Game, Side, View};
use crate::rules::Rules;
use clap::Args;

/// The games pbem plays, or one game's summary, notation and setup.
///
/// Examples:
///   pbem rules
///   pbem rules mad-rooks
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct RulesCmd {
    /// The game (its slug or name); omit to list them all.
    #[arg(value_name = "GAME")]
    game: Option<Rules>,
}

impl RulesCmd {
    pub fn execute(self) -> anyhow::Result<i32> {
        match self.game {
            None => {
                out!("pbem plays:\n");
                for r in Rules::ALL {
                    let i = r.info();
                    out!(
                        "  {:<20} {} by {} ({} and {})",
                        r.slug(),
                        i.name,
                        i.author,
                        i.sides[0],
                        i.sides[1]
                    );
                }
                out!("\nMore on one game: pbem rules GAME");
            }
            Some(r) => {
                let i = r.info();
                out!("{} by {} ({})\n", i.name, i.author, i.slug);
                out!("{}\n", i.summary);
                out!(
                    "Sides: {} and {}. {}",
                    i.sides[0],
                    i.sides[1],
                    match i.fixed_first {
                        Some(s) => format!("{} moves first.", i.sides[s.index()]),
                        None => "The players choose who moves first.".to_string(),
                    }
                );
                out!("Notation: {}.", i.notation);
                out!(
                    "Squares are numbered 1-{} row by row from the top-left.\n",
                    i.geometry.squares()
                );
                let board = crate::with_game!(r, G => {
                    G::start(i.fixed_first.unwrap_or(Side::A)).diagram(&View::default())
                });
                out!("The setup:\n\n{board}");
            }
        }
        Ok(0)
    }
}
