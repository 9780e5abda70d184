//! What pbem tells a player about Embed: its names, sides and byline,
//! the summary (`pbem rules embed --short`), and the complete rules
//! (`pbem rules embed`, from `embed.md` in this folder), whose sections
//! its refusals cite.

use crate::descriptor::{Credit, RulesInfo};
use crate::geom::Geometry;

crate::sections! {
    /// The sections of `pbem rules embed`, as its refusals cite them.
    pub enum Section {
        Board => "The board",
        Setup => "Setup",
        Moving => "Moving",
        Capturing => "Capturing",
        Winning => "Winning",
        Rulings => "Rulings",
        SetupRuling => "Ruling: the setup",
        Edges => "Ruling: edges and corners",
        Order => "Ruling: the order of the checks",
        NoLegalMove => "Ruling: no legal move",
        Series => "Playing a series",
        Notation => "Notation",
    }
}

pub static INFO: RulesInfo = RulesInfo {
    slug: "embed",
    name: "Embed",
    credit: Credit::By("Ty Bomba"),
    sides: ["black", "red"],
    fixed_first: None,
    geometry: Geometry::EIGHT,
    summary: "\
23 drones and a boss a side; each boss starts inside the enemy's front
row (red's boss on 20, black's on 45). Every piece moves like a chess
queen through empty squares. A drone may capture an enemy drone by moving
onto it; a boss only enters empty squares; nothing enters a boss's square.
Win by moving your boss onto the enemy's home row (black: 57-64, red:
1-8), or by fully embedding the enemy boss: every square around it held by
your pieces. A move that leaves your own boss embedded loses.",
    notation: "move 37-29, drone capture 37x29",
    examples: &["37-29", "37x29"],
    text: include_str!("embed.md"),
    id_prefix: "em",
    example: include_str!("embed.toml"),
    sections: Section::TITLES,
};
