//! What pbem tells a player about Mad Rooks and Mad Bishops: their names,
//! sides and byline, the summaries (`pbem rules mad-rooks --short`), and
//! the complete rules (`pbem rules mad-rooks`, `pbem rules mad-bishops`,
//! from `mad-rooks.md` and `mad-bishops.md` in this folder), whose sections their refusals cite. The two texts
//! have the same sections, as the two games have the same rules.

use crate::descriptor::{Credit, RulesInfo};
use crate::game::Side;
use crate::geom::Geometry;

crate::sections! {
    /// The sections of `pbem rules mad-rooks` and `pbem rules mad-bishops`, as its refusals cite them.
    pub enum Section {
        Board => "The board",
        Setup => "Setup",
        Killing => "Killing",
        Engaging => "Engaging",
        Winning => "Winning",
        Rulings => "Rulings",
        SetupRuling => "Ruling: the setup",
        JudgingEngage => "Ruling: judging an engage",
        NoLegalMove => "Ruling: no legal move",
        Series => "Playing a series",
        Notation => "Notation",
    }
}

pub static MAD_ROOKS: RulesInfo = RulesInfo {
    slug: "mad-rooks",
    name: "Mad Rooks",
    credit: Credit::By("Mark Steere"),
    sides: ["red", "blue"],
    fixed_first: Some(Side::A),
    geometry: Geometry::EIGHT,
    summary: "\
The board starts full, checkerboard fashion (blue on square 1). Red moves
first. A checker with an enemy in line along its row or column, only empty
squares between, may kill it and take its square; a checker that can kill
may only kill. A checker that cannot kill may slide along its row or
column through empty squares to engage: to a square from which it could
kill. Kill all enemy checkers to win.",
    notation: "engage 18-42, kill 18x22",
    examples: &["18-42", "18x22"],
    text: include_str!("mad-rooks.md"),
    id_prefix: "mr",
    example: include_str!("mad-rooks.toml"),
    sections: Section::TITLES,
};

pub static MAD_BISHOPS: RulesInfo = RulesInfo {
    slug: "mad-bishops",
    name: "Mad Bishops",
    credit: Credit::By("Mark Steere"),
    sides: ["red", "blue"],
    fixed_first: Some(Side::A),
    geometry: Geometry::TEN,
    summary: "\
Mad Rooks on a 10x10 board (squares 1-100) with diagonals instead of rows
and columns. The 50 dark squares start filled: blue on rows 1, 3, 5, 7, 9,
red on rows 2, 4, 6, 8, 10. Red moves first. Kill if you can with that
checker, else slide diagonally to engage. Kill all enemy checkers to win.",
    notation: "engage 22-44, kill 22x33",
    examples: &["22-44", "22x33"],
    text: include_str!("mad-bishops.md"),
    id_prefix: "mb",
    example: include_str!("mad-bishops.toml"),
    sections: Section::TITLES,
};
