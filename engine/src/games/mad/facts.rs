//! What pbem tells a player about M.A.D.: its names, sides and byline,
//! the summary (`pbem rules mad --short`), and the complete rules
//! (`pbem rules mad`, from `mad.md` in this folder), whose sections
//! its refusals cite.

use crate::descriptor::{Credit, RulesInfo};
use crate::geom::Geometry;

crate::sections! {
    /// The sections of `pbem rules mad`, as its refusals cite them.
    pub enum Section {
        Board => "The board",
        Setup => "Setup",
        SimpleMoves => "Simple moves",
        Lunges => "Lunges",
        Winning => "Winning",
        Rulings => "Rulings",
        NoCheckers => "Ruling: no checkers left",
        NoLegalMove => "Ruling: no legal move",
        Series => "Playing a series",
        Notation => "Notation",
    }
}

pub static INFO: RulesInfo = RulesInfo {
    slug: "mad",
    name: "M.A.D.",
    credit: Credit::By("Ty Bomba"),
    sides: ["black", "red"],
    fixed_first: None,
    geometry: Geometry::EIGHT,
    summary: "\
Stacks of four: black on 9-16 aiming at 57-64, red on 49-56 aiming at 1-8.
A simple move takes some or all checkers of a stack to an adjacent square
(friendly stacks at most 4; into enemy checkers, equal numbers of both are
eliminated). A lunge sends 2 or 3 checkers out in a line, one per square,
leaving at least one behind; only its last square may hold enemies, where
the lunging checker and one defender are eliminated. Reach the enemy home
row to win.",
    notation: "whole stack 12-20, part 12-20:2, attack 12x20 or 12x20:3, lunge L12-28 or L12x28",
    examples: &["12-20", "12-20:2", "12x20", "L12-28"],
    text: include_str!("mad.md"),
    id_prefix: "mad",
    example: include_str!("mad.toml"),
    sections: Section::TITLES,
};
