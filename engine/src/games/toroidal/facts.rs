//! What pbem tells a player about Toroidal Checkers: its names, sides and byline,
//! the summary (`pbem rules toroidal-checkers --short`), and the complete rules
//! (`pbem rules toroidal-checkers`, from `toroidal-checkers.md` in this folder), whose sections
//! its refusals cite.

use crate::descriptor::{Credit, RulesInfo};
use crate::game::Side;
use crate::geom::Geometry;

crate::sections! {
    /// The sections of `pbem rules toroidal-checkers`, as its refusals cite them.
    pub enum Section {
        Board => "The board",
        Setup => "Setup",
        Steps => "Steps",
        Jumps => "Jumps",
        JumpedPiece => "Where a jumped piece goes",
        End => "Winning and drawing",
        Rulings => "Rulings",
        Chains => "Ruling: chains",
        JumpedKing => "Ruling: a jumped king",
        AtOnce => "Ruling: jumped pieces move at once",
        FortyMoves => "Ruling: the forty-move draw",
        EndlessChains => "Ruling: endless chains",
        NoLegalMove => "Ruling: no legal move",
        Series => "Playing a series",
        Notation => "Notation",
    }
}

pub static INFO: RulesInfo = RulesInfo {
    slug: "toroidal-checkers",
    name: "Toroidal Checkers",
    credit: Credit::After("T. Robison"),
    sides: ["black", "white"],
    fixed_first: Some(Side::A),
    geometry: Geometry::EIGHT,
    summary: "\
Checkers on a torus: the board wraps at every edge. Dark squares are
heaven, light squares hell. Men step diagonally forward (black down, white
up), kings any diagonal; jumping is compulsory, and a piece may go on
jumping. A jumped piece is not removed: it moves 1, 3, 5 or 7 squares
along its row to the jumper's left, to the first empty square or man of
its colour (making a king), or leaves the game. A side with no piece in
heaven loses; 40 moves without a jump draw.",
    notation: "step 22-29, jumps by landing squares 22x36 or 22x36x50",
    examples: &["22-29", "22x36", "22x36x50"],
    text: include_str!("toroidal-checkers.md"),
    id_prefix: "tc",
    example: include_str!("toroidal-checkers.toml"),
    sections: Section::TITLES,
};
