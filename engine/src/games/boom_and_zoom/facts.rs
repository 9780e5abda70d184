//! What pbem tells a player about Boom & Zoom: its names, sides and byline,
//! the summary (`pbem rules boom-and-zoom --short`), and the complete rules
//! (`pbem rules boom-and-zoom`, from `boom-and-zoom.md` in this folder), whose sections
//! its refusals cite.

use crate::descriptor::{Credit, RulesInfo};
use crate::geom::Geometry;

crate::sections! {
    /// The sections of `pbem rules boom-and-zoom`, as its refusals cite them.
    pub enum Section {
        Board => "The board",
        Setup => "Setup",
        Zooming => "Zooming",
        Booming => "Booming",
        ZoomingOff => "Zooming off",
        End => "End of the game",
        Rulings => "Rulings",
        SingleChecker => "Ruling: a single checker",
        FarCorner => "Ruling: the far corner",
        NoLegalMove => "Ruling: no legal move",
        Series => "Playing a series",
        Notation => "Notation",
    }
}

pub static INFO: RulesInfo = RulesInfo {
    slug: "boom-and-zoom",
    name: "Boom & Zoom",
    credit: Credit::By("Ty Bomba"),
    sides: ["black", "red"],
    fixed_first: None,
    geometry: Geometry::EIGHT,
    summary: "\
Eight towers of three checkers a side: black on 1-8, red on 57-64.
On your turn zoom or boom with one tower. A tower of height h zooms 1..h
squares in a straight line (8 directions) through empty squares, or booms
an enemy tower 1..h squares away with only empty squares between: the
target loses its top checker (a single checker is removed).
Black zooms off the edge beyond 57-64, red beyond 1-8; the step off the
board counts as one square (straight or diagonally forward, the far corner
too). Checkers zoomed off score for their owner. The instant one
side has no tower on the board, play stops: more checkers off wins.",
    notation: "zoom 22-15, zoom off 22-off, boom 22x15",
    examples: &["22-15", "22x15", "22-off"],
    text: include_str!("boom-and-zoom.md"),
    id_prefix: "bz",
    example: include_str!("boom-and-zoom.toml"),
    sections: Section::TITLES,
};
