use super::out;
use crate::game::{Game, Side, View};
use crate::rules::Rules;
use clap::Args;

/// The games pbem plays, or one game's complete rules: every rule and
/// every ruling pbem applies, the notation and the setup board. Refusals
/// cite their sections ("see `pbem rules embed`, section Capturing").
///
/// Examples:
///   pbem rules
///   pbem rules mad-rooks
///   pbem rules mad-rooks --short
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct RulesCmd {
    /// The game (its slug or name); omit to list them all.
    #[arg(value_name = "GAME", value_parser = super::games::Games)]
    game: Option<Rules>,
    /// A summary instead of the complete rules: the aim and the moves in a
    /// few lines, the notation and the setup board.
    #[arg(long, requires = "game")]
    short: bool,
}

impl RulesCmd {
    pub fn execute(self) -> anyhow::Result<i32> {
        match self.game {
            None => {
                out!("pbem plays:\n");
                for r in Rules::ALL {
                    let [a, b] = r.info().sides;
                    out!("  {} ({a} and {b})", r.line());
                }
                out!(
                    "\nThe rules of one game: pbem rules GAME (a summary: pbem rules GAME --short)"
                );
            }
            Some(r) if !self.short => out!("{}", r.rules_text().trim_end()),
            Some(r) => {
                let i = r.info();
                out!("{} {} ({})\n", i.name, i.credit, i.slug);
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
                out!("The complete rules: pbem rules {}", i.slug);
            }
        }
        Ok(0)
    }
}
