//! The closed set of games pbem plays, and the dispatch from a [`Rules`]
//! value (a slug in a record) to the generic code for that game.

use crate::game::Side;
use crate::geom::Geometry;
use std::fmt;
use std::str::FromStr;

/// One of the eight games (RULES.md, sections 1 to 8).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Rules {
    BoomAndZoom,
    DragonsTeeth,
    Embed,
    Mad,
    MadRooks,
    MadBishops,
    GuerrillaCheckers,
    ToroidalCheckers,
}

/// What a player needs to know about a game before the first move.
#[derive(Debug)]
pub struct RulesInfo {
    pub slug: &'static str,
    pub name: &'static str,
    pub author: &'static str,
    /// Side names in RULES.md's order ([`Side::A`] first).
    pub sides: [&'static str; 2],
    /// The side the rules make move first; `None`: named when the game is
    /// created (the four New Millennium games).
    pub fixed_first: Option<Side>,
    pub geometry: Geometry,
    /// A few lines: the aim and the moves.
    pub summary: &'static str,
    /// How to write moves, with examples.
    pub notation: &'static str,
    /// One canonical example of each form of move the game has (RULES.md,
    /// the game's "Notation"), the most common first. Every syntax hint a
    /// player of this game sees quotes these and nothing else, so that
    /// nobody is told to write a form their game lacks (`22-off` in Mad
    /// Rooks); see [`crate::notation::ParseError::explain`].
    pub examples: &'static [&'static str],
}

impl Rules {
    pub const ALL: [Rules; 8] = [
        Rules::BoomAndZoom,
        Rules::DragonsTeeth,
        Rules::Embed,
        Rules::Mad,
        Rules::MadRooks,
        Rules::MadBishops,
        Rules::GuerrillaCheckers,
        Rules::ToroidalCheckers,
    ];

    pub fn info(self) -> &'static RulesInfo {
        match self {
            Rules::BoomAndZoom => &BOOM_AND_ZOOM,
            Rules::DragonsTeeth => &DRAGONS_TEETH,
            Rules::Embed => &EMBED,
            Rules::Mad => &MAD,
            Rules::MadRooks => &MAD_ROOKS,
            Rules::MadBishops => &MAD_BISHOPS,
            Rules::GuerrillaCheckers => &GUERRILLA,
            Rules::ToroidalCheckers => &TOROIDAL,
        }
    }
    pub fn slug(self) -> &'static str {
        self.info().slug
    }
    pub fn name(self) -> &'static str {
        self.info().name
    }
    pub const fn geometry(self) -> Geometry {
        match self {
            Rules::MadBishops => Geometry::TEN,
            _ => Geometry::EIGHT,
        }
    }
    pub fn side_name(self, side: Side) -> &'static str {
        self.info().sides[side.index()]
    }
    /// The side called `name` (case-insensitive).
    pub fn side_named(self, name: &str) -> Option<Side> {
        let name = name.trim();
        Side::BOTH
            .into_iter()
            .find(|s| self.side_name(*s).eq_ignore_ascii_case(name))
    }
    pub fn fixed_first(self) -> Option<Side> {
        self.info().fixed_first
    }
    /// The game's example moves, one per form ([`RulesInfo::examples`]).
    pub fn examples(self) -> &'static [&'static str] {
        self.info().examples
    }
    /// "like 22-15, 22x15 or 22-off": the game's example moves, for hints.
    pub fn write_like(self) -> String {
        crate::notation::like(self.examples())
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.slug())
    }
}

/// An unknown game name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRules(pub String);

impl fmt::Display for UnknownRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown game `{}`: pbem plays {}",
            self.0,
            Rules::ALL.map(|r| r.slug()).join(", ")
        )
    }
}

impl std::error::Error for UnknownRules {}

impl FromStr for Rules {
    type Err = UnknownRules;
    /// Accepts the slug, the display name, and spellings in between
    /// (`Boom & Zoom`, `boom_and_zoom`, `M.A.D.`), case-insensitive.
    fn from_str(s: &str) -> Result<Rules, UnknownRules> {
        let key = |t: &str| -> String {
            t.to_ascii_lowercase()
                .replace('&', "and")
                .chars()
                .filter(|c| c.is_ascii_alphanumeric())
                .collect()
        };
        let k = key(s);
        Rules::ALL
            .into_iter()
            .find(|r| key(r.slug()) == k || key(r.name()) == k)
            .ok_or_else(|| UnknownRules(s.trim().to_string()))
    }
}

/// Runs `$body` with `$g` bound to the game type for `$rules`: the one
/// place where a runtime [`Rules`] meets the generic code.
#[macro_export]
macro_rules! with_game {
    ($rules:expr, $g:ident => $body:expr) => {{
        use $crate::rules::Rules as __R;
        match $rules {
            __R::BoomAndZoom => {
                type $g = $crate::games::boom_and_zoom::BoomAndZoom;
                $body
            }
            __R::DragonsTeeth => {
                type $g = $crate::games::dragons_teeth::DragonsTeeth;
                $body
            }
            __R::Embed => {
                type $g = $crate::games::embed::Embed;
                $body
            }
            __R::Mad => {
                type $g = $crate::games::mad::Mad;
                $body
            }
            __R::MadRooks => {
                type $g = $crate::games::mad_rooks::MadRooks;
                $body
            }
            __R::MadBishops => {
                type $g = $crate::games::mad_rooks::MadBishops;
                $body
            }
            __R::GuerrillaCheckers => {
                type $g = $crate::games::guerrilla::Guerrilla;
                $body
            }
            __R::ToroidalCheckers => {
                type $g = $crate::games::toroidal::Toroidal;
                $body
            }
        }
    }};
}

static BOOM_AND_ZOOM: RulesInfo = RulesInfo {
    slug: "boom-and-zoom",
    name: "Boom & Zoom",
    author: "Ty Bomba",
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
};

static DRAGONS_TEETH: RulesInfo = RulesInfo {
    slug: "dragons-teeth",
    name: "Dragons Teeth",
    author: "Ty Bomba",
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
};

static EMBED: RulesInfo = RulesInfo {
    slug: "embed",
    name: "Embed",
    author: "Ty Bomba",
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
};

static MAD: RulesInfo = RulesInfo {
    slug: "mad",
    name: "M.A.D.",
    author: "Ty Bomba",
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
};

static MAD_ROOKS: RulesInfo = RulesInfo {
    slug: "mad-rooks",
    name: "Mad Rooks",
    author: "Mark Steere",
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
};

static MAD_BISHOPS: RulesInfo = RulesInfo {
    slug: "mad-bishops",
    name: "Mad Bishops",
    author: "Mark Steere",
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
};

static GUERRILLA: RulesInfo = RulesInfo {
    slug: "guerrilla-checkers",
    name: "Guerrilla Checkers",
    author: "Brian Train",
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
};

static TOROIDAL: RulesInfo = RulesInfo {
    slug: "toroidal-checkers",
    name: "Toroidal Checkers",
    author: "after T. Robison",
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
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse() {
        assert_eq!("boom-and-zoom".parse(), Ok(Rules::BoomAndZoom));
        assert_eq!("Boom & Zoom".parse(), Ok(Rules::BoomAndZoom));
        assert_eq!("M.A.D.".parse(), Ok(Rules::Mad));
        assert_eq!("MAD".parse(), Ok(Rules::Mad));
        assert!(
            "chess"
                .parse::<Rules>()
                .unwrap_err()
                .to_string()
                .contains("mad-rooks")
        );
        for r in Rules::ALL {
            assert_eq!(r.slug().parse(), Ok(r));
            assert_eq!(r.geometry(), r.info().geometry);
        }
    }
}
