//! What pbem tells a player about Guerrilla Checkers: its names, sides and byline,
//! the summary (`pbem rules guerrilla-checkers --short`), and the complete rules
//! (`pbem rules guerrilla-checkers`, from `guerrilla-checkers.md` in this folder), whose sections
//! its refusals cite.

use crate::descriptor::{Credit, RulesInfo};
use crate::game::Side;
use crate::geom::Geometry;

crate::sections! {
    /// The sections of `pbem rules guerrilla-checkers`, as its refusals cite them.
    pub enum Section {
        Board => "The board and the points",
        Setup => "Setup",
        GuerrillaTurn => "The guerrilla's turn",
        CoinTurn => "COIN's turn",
        Winning => "Winning",
        Rulings => "Rulings",
        PointNames => "Ruling: point names",
        WinningStone => "Ruling: a winning first stone",
        SecondStone => "Ruling: a first stone needs a second",
        EmptySupply => "Ruling: an empty supply",
        BothOrders => "Ruling: both orders",
        NoLegalMove => "Ruling: no legal move",
        Series => "Playing a series",
        Notation => "Notation",
    }
}

pub static INFO: RulesInfo = RulesInfo {
    slug: "guerrilla-checkers",
    name: "Guerrilla Checkers",
    credit: Credit::By("Brian Train"),
    sides: ["guerrilla", "coin"],
    fixed_first: Some(Side::A),
    geometry: Geometry::EIGHT,
    summary: "\
The guerrilla (66 stones, moves first) places two stones a turn on the
grid points inside the board: the first next to a stone already placed,
the second next to the first. A COIN piece whose four corners are all
stones or board edge is removed. COIN (6 pieces on 20, 27, 29, 36, 38, 45)
steps one square diagonally; crossing a point with a stone captures it,
and once capturing it must go on while it can. Remove all enemy pieces to
win; the guerrilla loses with an empty supply.",
    notation: "stones 27/36,28/37 (a point is named by the squares at its upper-left and lower-right), COIN step 27-36, capture chain 27x36x45",
    examples: &["27/36,28/37", "27-36", "27x36x45"],
    text: include_str!("guerrilla-checkers.md"),
    id_prefix: "gc",
    example: include_str!("guerrilla-checkers.toml"),
    sections: Section::TITLES,
};
