//! What pbem tells a player about Dragons Teeth: its names, sides and byline,
//! the summary (`pbem rules dragons-teeth --short`), and the complete rules
//! (`pbem rules dragons-teeth`, from `dragons-teeth.md` in this folder), whose sections
//! its refusals cite.

use crate::descriptor::{Credit, RulesInfo};
use crate::geom::Geometry;

crate::sections! {
    /// The sections of `pbem rules dragons-teeth`, as its refusals cite them.
    pub enum Section {
        Board => "The board",
        Setup => "Setup",
        Teeth => "Teeth",
        Moving => "Moving",
        Eliminating => "Eliminating",
        MovingOff => "Moving off",
        End => "End of the game",
        Rulings => "Rulings",
        SetupRuling => "Ruling: the setup",
        FarCorner => "Ruling: the far corner",
        NoLegalMove => "Ruling: no legal move",
        Series => "Playing a series",
        Notation => "Notation",
    }
}

pub static INFO: RulesInfo = RulesInfo {
    slug: "dragons-teeth",
    name: "Dragons Teeth",
    credit: Credit::By("Ty Bomba"),
    sides: ["black", "red"],
    fixed_first: None,
    geometry: Geometry::EIGHT,
    summary: "\
Teeth of strength 3 (large), 2 (medium) and 1 (small): black on 1-24, red
on 41-64, large teeth on the home rows. A tooth moves any distance in a
straight line through empty squares, and may end on an enemy tooth to
eliminate it when its attack (its strength plus the strengths of your other
teeth next to the target) is at least the target's strength. Black moves
off the edge beyond 57-64, red beyond 1-8; a tooth that leaves scores its
strength. First to move off 6 or more points wins.",
    notation: "move 17-33, elimination 33x41, off 49-off",
    examples: &["17-33", "33x41", "49-off"],
    text: include_str!("dragons-teeth.md"),
    id_prefix: "dt",
    example: include_str!("dragons-teeth.toml"),
    sections: Section::TITLES,
};
