//! A board as data: what every square shows (its shade, its piece, whether
//! the last move touched it) and what stands on the grid crossings
//! (Guerrilla Checkers' stones). Each game builds one
//! ([`crate::game::Game::board`]); three drawings read it: the ASCII board
//! of the plain-text mail ([`crate::diagram::ascii`]), the HTML table of
//! the mail's HTML part ([`html_table`]) and SVG ([`svg`], for
//! `pbem show --svg` and a web archive).
//!
//! The drawings are plain string building, so they live here beside the
//! data, usable by anything that has a position and no I/O.

mod frames;
mod html;
mod svg;

pub use frames::{svg_frames, svg_frames_captioned, svg_frames_from};
pub use html::{html_legend, html_style, html_table, square_title};
pub use svg::svg;

use crate::geom::{Geometry, Sq};
use crate::side::Side;
use std::borrow::Cow;
use std::fmt::Write as _;

/// The fill of an ASCII square on a heaven square (Toroidal Checkers).
pub const HEAVEN_FILL: char = ':';

/// A board to draw: squares in rulebook order (square 1 first) and, for
/// games played on the crossings too, what stands on them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub geometry: Geometry,
    /// Turned 180° for the reader, who sits at the other end (as the
    /// ASCII board is: `View::seat`).
    pub flip: bool,
    /// One per square, square 1 first.
    pub squares: Vec<Square>,
    /// The grid crossings that hold something, for the games whose pieces
    /// stand on crossings (Guerrilla Checkers); `None` for the others,
    /// whose drawings then have no room for crossings.
    pub points: Option<Vec<Crossing>>,
    /// What a legend adds about the game's rules, not about how the
    /// board is drawn ("Black zooms off the edge beyond 57-64, ..."):
    /// shown under every drawing.
    pub notes: Vec<String>,
}

/// The words a game puts around its ASCII board ([`crate::game::Game::diagram_words`]),
/// as [`crate::diagram::Diagram`] puts them together.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Words {
    /// Above the board: the caption ([`crate::diagram::status_line`]) and the game's
    /// counts (scores, stones in supply), ending with the line break
    /// before the board.
    pub above: String,
    /// Below the board: the legend of its ASCII marks and the game's notes.
    pub below: String,
}

/// One square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Square {
    pub piece: Option<Piece>,
    pub shade: Shade,
    /// Part of the last move.
    pub marked: bool,
}

/// A square's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shade {
    Light,
    Dark,
    /// A dark square with a meaning of its own: Toroidal Checkers' heaven
    /// (shaded `::` on the ASCII board).
    Heaven,
}

/// The colours of the pieces of the eight games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    Black,
    Red,
    White,
    Blue,
}

/// What a piece is, for how its disc is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// One checker, man, drone or COIN piece.
    Single,
    /// A stack, tower or tooth of this height or strength.
    Counted(u8),
    /// A crowned piece: a king (Toroidal Checkers), a boss (Embed).
    Crowned,
}

/// A piece on a square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub side: Side,
    pub colour: Colour,
    pub kind: Kind,
    /// What its disc shows: the height of a stack (`3`), `K` for a king,
    /// `C` for a COIN piece; may be empty.
    pub label: Cow<'static, str>,
    /// The piece on the ASCII board: `B3`, `*R*`, `WW`.
    pub ascii: Cow<'static, str>,
    /// The piece in words, for a tooltip: "black tower of 3". (The three
    /// are most often words of the game's own, lent, not made: a board
    /// is built for every mail.)
    pub name: Cow<'static, str>,
}

/// What stands on a grid crossing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crossing {
    /// The grid lines that cross there: 0..=height (0 above the first
    /// row) and 0..=width (0 left of the first column).
    pub row: u8,
    pub col: u8,
    pub mark: Stone,
    /// The point's name in the game's notation (`27/36`).
    pub name: String,
}

/// A crossing's mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stone {
    /// A stone.
    Stone,
    /// A stone the last move placed.
    Placed,
    /// Empty now: the last move captured the stone that stood here.
    Captured,
}

impl Stone {
    /// Its character on the ASCII board, at the crossing of the rules.
    pub const fn ascii(self) -> char {
        match self {
            Stone::Stone => 'O',
            Stone::Placed => '@',
            Stone::Captured => 'x',
        }
    }
}

impl Shade {
    /// The usual two shades of a board: dark where
    /// docs/src/rules/common.md, "Colour of squares", says.
    pub fn of(geometry: Geometry, s: Sq) -> Shade {
        if geometry.is_dark(s) {
            Shade::Dark
        } else {
            Shade::Light
        }
    }
}

impl Board {
    /// A board of `geometry` whose squares are `square(s)`, without
    /// crossings.
    pub fn new(geometry: Geometry, flip: bool, square: impl Fn(Sq) -> Square) -> Board {
        Board {
            geometry,
            flip,
            squares: (0..geometry.squares()).map(|s| square(Sq(s))).collect(),
            points: None,
            notes: Vec::new(),
        }
    }

    /// The square at display row `vr` and column `vc` (0 at the top left
    /// as the reader sees it): turned when the board is.
    pub fn shown_at(&self, vr: u8, vc: u8) -> Sq {
        let g = self.geometry;
        if self.flip {
            g.at(g.height - 1 - vr, g.width - 1 - vc)
        } else {
            g.at(vr, vc)
        }
    }

    /// The crossing at grid lines `(row, col)`, if it holds something.
    pub fn crossing(&self, row: u8, col: u8) -> Option<&Crossing> {
        self.points
            .as_ref()?
            .iter()
            .find(|p| p.row == row && p.col == col)
    }

    /// The display position of grid line crossing `(row, col)`.
    pub fn shown_line(&self, row: u8, col: u8) -> (u8, u8) {
        let g = self.geometry;
        if self.flip {
            (g.height - row, g.width - col)
        } else {
            (row, col)
        }
    }
}

/// The piece of a side and a number (Boom & Zoom's towers, Dragons
/// Teeth's teeth, M.A.D.'s stacks): `B3` black, `R2` red on the ASCII
/// board; `what` names one ("tower", "tooth", "stack").
pub fn counted(side: Side, n: u8, what: &str) -> Piece {
    let (colour, letter, name) = match side {
        Side::A => (Colour::Black, 'B', "black"),
        Side::B => (Colour::Red, 'R', "red"),
    };
    // Made for every square of every board drawn: the label and the
    // ASCII piece are the same few words every time, each made once, when
    // first drawn (a process that draws one board makes a handful, not
    // all 512).
    type Words = std::sync::OnceLock<(String, String)>;
    static WORDS: [[Words; 256]; 2] = [const { [const { Words::new() }; 256] }; 2];
    let (ascii, number) = WORDS[usize::from(letter == 'R')][usize::from(n)].get_or_init(|| {
        let mut number = String::with_capacity(3);
        push_number(&mut number, u16::from(n));
        (format!("{letter}{number}"), number)
    });
    Piece {
        side,
        colour,
        kind: Kind::Counted(n),
        name: [name, " ", what, " of ", number].concat().into(),
        label: Cow::Borrowed(number.as_str()),
        ascii: Cow::Borrowed(ascii.as_str()),
    }
}

/// Text for HTML and XML: `&`, `<`, `>`, `"` and `'` escaped.
pub fn escape(s: &str) -> String {
    escaped(s, true)
}

/// Text for HTML between tags or in a `"`-quoted attribute: `&`, `<`,
/// `>` and `"` escaped; an apostrophe, common in prose, stays as it is.
pub fn escape_text(s: &str) -> String {
    escaped(s, false)
}

fn escaped(s: &str, apostrophe: bool) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    escape_onto(&mut out, s, apostrophe, false);
    out
}

/// `s` escaped for HTML as [`escape`] (`apostrophe`) or [`escape_text`]
/// do, onto `out`; with `ascii`, every character outside ASCII also as a
/// character reference (a part that travels as 7bit).
pub fn escape_onto(out: &mut String, s: &str, apostrophe: bool, ascii: bool) {
    // Most text needs nothing: copied at once.
    let plain = |b: &u8| {
        !matches!(b, b'&' | b'<' | b'>' | b'"')
            && (b.is_ascii() || !ascii)
            && (*b != b'\'' || !apostrophe)
    };
    if s.as_bytes().iter().all(plain) {
        out.push_str(s);
        return;
    }
    escape_each_onto(out, s, apostrophe, ascii);
}

/// [`escape_onto`] a character at a time.
fn escape_each_onto(out: &mut String, s: &str, apostrophe: bool, ascii: bool) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' if apostrophe => out.push_str("&#39;"),
            c if ascii && !c.is_ascii() => {
                let _ = write!(out, "&#{};", c as u32);
            }
            c => out.push(c),
        }
    }
}

/// The colours both drawings use, so that the table and the SVG look
/// alike.
pub(crate) mod palette {
    use super::{Colour, Shade};

    pub fn square(shade: Shade, marked: bool) -> &'static str {
        match (shade, marked) {
            (Shade::Light, false) => "#f0d9b5",
            (Shade::Dark, false) => "#b58863",
            (Shade::Heaven, false) => "#7b9fc7",
            (Shade::Light, true) => "#f5ec7a",
            (Shade::Dark | Shade::Heaven, true) => "#d4c23c",
        }
    }

    /// The square number's colour on a square of `shade`.
    pub fn number(shade: Shade) -> &'static str {
        match shade {
            Shade::Light => "#8a6d4b",
            Shade::Dark => "#4a3520",
            Shade::Heaven => "#1f3550",
        }
    }

    /// Disc fill, rim, text.
    pub fn disc(colour: Colour) -> (&'static str, &'static str, &'static str) {
        match colour {
            Colour::Black => ("#222222", "#000000", "#ffffff"),
            Colour::Red => ("#c0282d", "#7a1114", "#ffffff"),
            Colour::White => ("#fafafa", "#555555", "#111111"),
            Colour::Blue => ("#2855c0", "#112f7a", "#ffffff"),
        }
    }

    /// The grid lines between squares, where stones stand.
    pub const LINE: &str = "#6b4f33";
    pub const STONE: &str = "#111111";
    pub const PLACED_RIM: &str = "#f5d000";
    pub const CAPTURED: &str = "#c0282d";
}

/// `n` in decimal onto `out`, without the formatting machinery (a
/// number on every square of every board of every mail).
pub(crate) fn push_number(out: &mut String, n: u16) {
    let mut digits = [0u8; 5];
    let mut at = digits.len();
    let mut n = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[at..] {
        out.push(char::from(d));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_covers_markup_and_quotes() {
        assert_eq!(
            escape("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }

    /// Text with nothing to escape is copied at once: the same as a look
    /// at each character, over random texts and every choice.
    #[test]
    fn escaping_at_once_is_escaping_each_character() {
        let alphabet = ['a', ' ', '&', '<', '>', '"', '\'', 'é', '€', '1'];
        let mut rng = fastrand::Rng::with_seed(3);
        for n in 0..10_000 {
            // Half of them plain ASCII letters, the case copied at once.
            let pick = if n % 2 == 0 {
                &alphabet[..2]
            } else {
                &alphabet[..]
            };
            let t: String = (0..n % 20).map(|_| pick[rng.usize(..pick.len())]).collect();
            for (apostrophe, ascii) in [(false, false), (false, true), (true, false), (true, true)]
            {
                let mut out = String::from("x");
                escape_onto(&mut out, &t, apostrophe, ascii);
                let mut each = String::from("x");
                escape_each_onto(&mut each, &t, apostrophe, ascii);
                assert_eq!(out, each, "{t:?}");
            }
        }
    }

    #[test]
    fn flipped_boards_show_the_last_square_first() {
        let b = Board::new(Geometry::EIGHT, true, |s| Square {
            piece: None,
            shade: Shade::of(Geometry::EIGHT, s),
            marked: false,
        });
        assert_eq!(b.shown_at(0, 0), Sq(63));
        assert_eq!(b.shown_at(7, 7), Sq(0));
        assert_eq!(b.shown_line(0, 0), (8, 8));
    }
}
