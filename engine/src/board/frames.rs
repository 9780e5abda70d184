//! Every position of a game in one SVG, for the web archive's game pages:
//! the squares and their numbers drawn once, each piece's
//! look defined once, and one group per position holding only what
//! changes (the last move's squares, the pieces, the stones), each as a
//! reference to its look. A game of sixty moves is then a few tens of
//! kilobytes, where sixty boards drawn whole ([`super::svg`]) would be a
//! megabyte.
//!
//! Position `n` is the group with id `{prefix}{n}` and class `ply`; the
//! page shows one at a time (its CSS: `:target`, the last by default).
//! With captions ([`svg_frames_captioned`]), each group also holds its
//! own, in a band under the board: the caption shown is always the
//! position's on show, with or without a script.

use super::svg::{FONT, FRAME, SQUARE};
use super::{Board, Kind, Piece, Shade, Stone, escape_text, palette};
use crate::geom::Sq;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The positions `boards` (all of one game, so of one geometry and
/// orientation; the first gives them) as one `<svg>`; empty for none.
pub fn svg_frames(boards: &[Board], prefix: &str) -> String {
    svg_frames_from(boards, prefix, 0)
}

/// [`svg_frames`] for a stretch of a game: `boards[0]` is position
/// `from` (its group `{prefix}{from}`), so that a long game drawn on
/// several pages keeps one name for each position.
pub fn svg_frames_from(boards: &[Board], prefix: &str, from: usize) -> String {
    svg_frames_captioned(boards, prefix, from, &[])
}

/// [`svg_frames_from`] with `captions[i]` under position `from + i`'s
/// board, in a band of its own (none: no band). A caption too long for
/// the band's width is narrowed to fit it.
pub fn svg_frames_captioned(
    boards: &[Board],
    prefix: &str,
    from: usize,
    captions: &[String],
) -> String {
    let Some(first) = boards.first() else {
        return String::new();
    };
    let g = first.geometry;
    let w = u32::from(g.width) * SQUARE + 2 * FRAME;
    let board_h = u32::from(g.height) * SQUARE + 2 * FRAME;
    let band = Band::under(w, board_h, !captions.is_empty());
    let h = board_h + band.height;
    let mut looks = Looks::default();
    let mut body = String::new();
    for (n, board) in boards.iter().enumerate() {
        let caption = captions.get(n);
        let n = from + n;
        let _ = write!(body, "<g id=\"{prefix}{n}\" class=\"ply\">");
        if let Some(c) = caption {
            band.caption(&mut body, c);
        }
        for (s, sq) in board.squares.iter().enumerate() {
            let s = Sq(s as u8);
            let (x, y) = corner(first, s);
            if sq.marked {
                number_square(&mut body, x, y, s, sq.shade, true);
            }
            if let Some(p) = &sq.piece {
                let look = looks.of(p);
                let _ = write!(body, "<use href=\"#{look}\" x=\"{x}\" y=\"{y}\"/>");
            }
        }
        for c in board.points.iter().flatten() {
            let (vr, vc) = first.shown_line(c.row, c.col);
            let x = FRAME + u32::from(vc) * SQUARE;
            let y = FRAME + u32::from(vr) * SQUARE;
            let look = match c.mark {
                Stone::Stone => "stone",
                Stone::Placed => "placed",
                Stone::Captured => "captured",
            };
            let _ = write!(body, "<use href=\"#{look}\" x=\"{x}\" y=\"{y}\"/>");
        }
        body.push_str("</g>\n");
    }
    let mut out = String::with_capacity(body.len() + 8 * 1024);
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" \
         font-family=\"{FONT}\" class=\"board\" role=\"img\">"
    );
    out.push_str("<defs>\n");
    looks.define(&mut out);
    stones(&mut out);
    out.push_str("</defs>\n");
    let _ = writeln!(
        out,
        "<rect width=\"{w}\" height=\"{board_h}\" fill=\"{}\"/>",
        palette::LINE
    );
    if band.height > 0 {
        let _ = writeln!(
            out,
            "<rect y=\"{board_h}\" width=\"{w}\" height=\"{}\" fill=\"#fff\"/>",
            band.height
        );
    }
    for (s, sq) in first.squares.iter().enumerate() {
        let s = Sq(s as u8);
        let (x, y) = corner(first, s);
        number_square(&mut out, x, y, s, sq.shade, false);
    }
    out.push('\n');
    out.push_str(&body);
    out.push_str("</svg>\n");
    out
}

/// The band of captions under a board `w` wide and `top` high: its
/// letters a 26th of the board's width (about 12 px wherever a phone
/// draws the board across its screen).
struct Band {
    width: u32,
    top: u32,
    height: u32,
    size: u32,
}

impl Band {
    fn under(width: u32, top: u32, shown: bool) -> Band {
        let size = width / 26;
        let height = if shown { size * 2 } else { 0 };
        Band {
            width,
            top,
            height,
            size,
        }
    }

    /// `text` in the band, at its left, narrowed to the band's width
    /// when its letters (about 0.56 of their size wide, in Arial) would
    /// not fit.
    fn caption(&self, out: &mut String, text: &str) {
        let room = self.width - 2 * FRAME;
        let wide = text.chars().count() as u32 * self.size * 56 / 100;
        let fit = if wide > room {
            format!(" textLength=\"{room}\" lengthAdjust=\"spacingAndGlyphs\"")
        } else {
            String::new()
        };
        let _ = write!(
            out,
            "<text class=\"caption\" x=\"{FRAME}\" y=\"{}\" font-size=\"{}\" fill=\"#222\"{fit}>{}</text>",
            self.top + self.size * 7 / 5,
            self.size,
            escape_text(text)
        );
    }
}

/// The top left corner of square `s` as `board` shows it.
fn corner(board: &Board, s: Sq) -> (u32, u32) {
    let g = board.geometry;
    let (r, c) = (s.0 / g.width, s.0 % g.width);
    let (vr, vc) = if board.flip {
        (g.height - 1 - r, g.width - 1 - c)
    } else {
        (r, c)
    };
    (
        FRAME + u32::from(vc) * SQUARE,
        FRAME + u32::from(vr) * SQUARE,
    )
}

/// A square at `(x, y)` in its shade (marked: the last move's), with its
/// number at the top left.
fn number_square(out: &mut String, x: u32, y: u32, s: Sq, shade: Shade, marked: bool) {
    let _ = write!(
        out,
        "<rect x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{}\"/>\
         <text x=\"{}\" y=\"{}\" font-size=\"10\" fill=\"{}\">{}</text>",
        palette::square(shade, marked),
        x + 3,
        y + 11,
        palette::number(shade),
        s.number()
    );
}

/// A piece's look: its disc's fill, rim and ink, its label and name
/// (the tooltip), whether it is crowned.
type Look = (
    &'static str,
    &'static str,
    &'static str,
    Cow<'static, str>,
    Cow<'static, str>,
    bool,
);

/// The looks of the pieces met so far, in the order met.
#[derive(Default)]
struct Looks {
    ids: BTreeMap<Look, usize>,
}

impl Looks {
    /// The id of `p`'s look, made on first use.
    fn of(&mut self, p: &Piece) -> String {
        let (fill, rim, ink) = palette::disc(p.colour);
        let crowned = matches!(p.kind, Kind::Crowned);
        let look = (fill, rim, ink, p.label.clone(), p.name.clone(), crowned);
        let next = self.ids.len();
        format!("pc{}", self.ids.entry(look).or_insert(next))
    }

    /// The `<g>` of every look, drawn for a square whose corner is at
    /// the origin.
    fn define(&self, out: &mut String) {
        let mut looks: Vec<(&Look, &usize)> = self.ids.iter().collect();
        looks.sort_by_key(|(_, n)| **n);
        for ((fill, rim, ink, label, name, crowned), n) in looks {
            let (stroke, width) = if *crowned {
                (palette::PLACED_RIM, 4)
            } else {
                (*rim, 2)
            };
            let (cx, cy) = (SQUARE / 2, SQUARE / 2 + 4);
            let _ = writeln!(
                out,
                "<g id=\"pc{n}\"><title>{}</title><circle cx=\"{cx}\" cy=\"{cy}\" r=\"15\" \
                 fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{width}\"/><text x=\"{cx}\" \
                 y=\"{}\" font-size=\"15\" font-weight=\"bold\" text-anchor=\"middle\" \
                 fill=\"{ink}\">{}</text></g>",
                super::escape(name),
                cy + 5,
                super::escape(label)
            );
        }
    }
}

/// The looks of a crossing's marks, centred on the origin.
fn stones(out: &mut String) {
    let _ = writeln!(
        out,
        "<circle id=\"stone\" r=\"8\" fill=\"{}\"/>\n\
         <circle id=\"placed\" r=\"8\" fill=\"{}\" stroke=\"{}\" stroke-width=\"3\"/>\n\
         <path id=\"captured\" d=\"M-6 -6l12 12m0 -12l-12 12\" stroke=\"{}\" stroke-width=\"3\"/>",
        palette::STONE,
        palette::STONE,
        palette::PLACED_RIM,
        palette::CAPTURED
    );
}

#[cfg(test)]
mod tests {
    use super::super::{Shade, Square, counted};
    use super::*;
    use crate::geom::Geometry;
    use crate::side::Side;

    fn board(piece_at: u8, marked: u8) -> Board {
        Board::new(Geometry::EIGHT, false, |s| Square {
            piece: (s == Sq(piece_at)).then(|| counted(Side::B, 2, "tooth")),
            shade: Shade::of(Geometry::EIGHT, s),
            marked: s == Sq(marked),
        })
    }

    #[test]
    fn each_position_is_a_group_of_references() {
        let s = svg_frames(&[board(0, 9), board(9, 0)], "p");
        assert!(s.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert_eq!(s.matches("class=\"ply\"").count(), 2);
        assert!(s.contains("<g id=\"p0\" class=\"ply\">"));
        assert!(s.contains("<g id=\"p1\" class=\"ply\">"));
        // One look for the same piece in both positions.
        assert_eq!(s.matches("<g id=\"pc").count(), 1, "{s}");
        assert_eq!(s.matches("href=\"#pc0\"").count(), 2);
        // Square 1 at the corner, square 10 one row down and one across.
        assert!(s.contains("<use href=\"#pc0\" x=\"6\" y=\"6\"/>"), "{s}");
        assert!(s.contains("<use href=\"#pc0\" x=\"54\" y=\"54\"/>"), "{s}");
        // The squares drawn once, and the marked one again in each.
        assert_eq!(s.matches("<rect x=").count(), 64 + 2);
    }

    #[test]
    fn a_stretch_of_a_game_keeps_the_names_of_its_positions() {
        let s = svg_frames_from(&[board(0, 9), board(9, 0)], "p", 200);
        assert!(s.contains("<g id=\"p200\" class=\"ply\">"), "{s}");
        assert!(s.contains("<g id=\"p201\" class=\"ply\">"), "{s}");
        assert!(!s.contains("<g id=\"p0\""), "{s}");
    }

    #[test]
    fn each_position_carries_its_own_caption_under_the_board() {
        let long = "After move 12: white 47x29x11x61x43x25x7x21x39x57x75".to_string();
        let s = svg_frames_captioned(
            &[board(0, 9), board(9, 0)],
            "p",
            4,
            &["The start <a>".into(), long],
        );
        // A band under the 8x8 board (396 units): 30 units high.
        assert!(s.contains("viewBox=\"0 0 396 426\""), "{s}");
        let (p4, p5) = s.split_once("<g id=\"p5\"").unwrap();
        let p4 = p4.split("<g id=\"p4\"").nth(1).unwrap();
        assert!(p4.contains(">The start &lt;a&gt;</text>"), "{p4}");
        assert!(!p4.contains("textLength"), "a short caption as it is");
        assert!(p5.contains("textLength=\"384\""), "a long one fitted: {p5}");
        // Without captions, no band.
        let plain = svg_frames_from(&[board(0, 9)], "p", 0);
        assert!(plain.contains("viewBox=\"0 0 396 396\""), "{plain}");
        assert!(!plain.contains("caption"));
    }

    #[test]
    fn no_positions_no_drawing() {
        assert_eq!(svg_frames(&[], "p"), "");
    }
}
