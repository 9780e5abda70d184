//! The board as an HTML table for the HTML part of a mail (issue 17):
//! inline `style=` attributes only (webmail drops `<style>`, SVG and
//! external CSS, and blocks images), no positioning (Gmail strips it), so
//! every square is a table cell: its number small at the top left, its
//! piece a disc (`border-radius`; square in clients that ignore it) with
//! the height or strength on it, the last move's squares in a brighter
//! shade. Boards with crossings (Guerrilla Checkers) get a thin row and
//! column of grid line between the squares, where the stones stand.
//!
//! The output is ASCII (anything else as a character reference) in short
//! lines, so a mail carries it as 7bit text without growing.

use super::{Board, Crossing, Kind, Piece, Square, Stone, palette};
use std::fmt::Write as _;

/// A square's side in pixels.
const SQUARE: u32 = 44;
/// A grid line's width where crossings hold stones.
const LINE: u32 = 14;
const FONT: &str = "Arial,Helvetica,sans-serif";

/// The board as a `<table>`: squares in two shades (heaven in its own),
/// each with its number; pieces as discs with their label; the last move
/// highlighted; turned when `board.flip`; stones on crossings.
pub fn html_table(board: &Board) -> String {
    let g = board.geometry;
    let mut out = String::with_capacity(400 * g.squares() as usize);
    let _ = writeln!(
        out,
        "<table role=\"presentation\" cellpadding=\"0\" cellspacing=\"0\" border=\"0\" \
         style=\"border:3px solid {line};background-color:{line};margin:6px 0\">",
        line = palette::LINE
    );
    let lines = board.points.is_some();
    if lines {
        for vr in 0..=2 * g.height {
            out.push_str("<tr>");
            for vc in 0..=2 * g.width {
                match (vr % 2, vc % 2) {
                    (1, 1) => square_cell(&mut out, board, vr / 2, vc / 2),
                    (0, 0) => crossing_cell(&mut out, board, vr / 2, vc / 2),
                    (0, _) => line_cell(&mut out, SQUARE, LINE),
                    _ => line_cell(&mut out, LINE, SQUARE),
                }
            }
            out.push_str("</tr>\n");
        }
    } else {
        for vr in 0..g.height {
            out.push_str("<tr>\n");
            for vc in 0..g.width {
                square_cell(&mut out, board, vr, vc);
            }
            out.push_str("</tr>\n");
        }
    }
    out.push_str("</table>\n");
    out
}

/// The square shown at display row `vr`, column `vc`.
fn square_cell(out: &mut String, board: &Board, vr: u8, vc: u8) {
    let s = board.shown_at(vr, vc);
    let Some(sq) = board.squares.get(s.index()) else {
        return;
    };
    let Square {
        piece,
        shade,
        marked,
    } = sq;
    let n = s.number();
    let mut title = format!("{n}");
    if let Some(p) = piece {
        let _ = write!(title, ": {}", p.name);
    }
    if *marked {
        title.push_str(", last move");
    }
    let _ = write!(
        out,
        "<td title=\"{}\" style=\"width:{SQUARE}px;height:{SQUARE}px;min-width:{SQUARE}px;padding:0;\
         vertical-align:top;background-color:{}\">\
         <div style=\"font:10px/11px {FONT};color:{};text-align:left;padding:1px 0 0 2px\">{n}</div>",
        text(&title),
        palette::square(*shade, *marked),
        palette::number(*shade),
    );
    if let Some(p) = piece {
        disc(out, p);
    }
    out.push_str("</td>\n");
}

/// A piece: a disc with its label.
fn disc(out: &mut String, p: &Piece) {
    let (fill, rim, ink) = palette::disc(p.colour);
    let border = match p.kind {
        Kind::Crowned => format!("3px double {}", palette::PLACED_RIM),
        Kind::Single | Kind::Counted(_) => format!("2px solid {rim}"),
    };
    let _ = write!(
        out,
        "<div style=\"margin:0 auto;width:26px;height:26px;border-radius:15px;\
         background-color:{fill};border:{border};color:{ink};\
         font:bold 14px/26px {FONT};text-align:center\">{}</div>",
        text(&p.label)
    );
}

/// A stretch of grid line between two squares.
fn line_cell(out: &mut String, width: u32, height: u32) {
    // The table's background is the line's colour.
    let _ = writeln!(
        out,
        "<td style=\"width:{width}px;height:{height}px;padding:0;font-size:0;line-height:0\"></td>"
    );
}

/// A crossing of grid lines, with its stone if it has one.
fn crossing_cell(out: &mut String, board: &Board, vr: u8, vc: u8) {
    let (row, col) = board.shown_line(vr, vc);
    let base =
        format!("width:{LINE}px;height:{LINE}px;padding:0;text-align:center;vertical-align:middle");
    match board.crossing(row, col) {
        None => {
            let _ = write!(out, "<td style=\"{base};font-size:0;line-height:0\"></td>");
        }
        Some(c) => {
            let _ = write!(
                out,
                "<td title=\"{}\" style=\"{base}\">{}</td>",
                text(&crossing_title(c)),
                stone(c.mark)
            );
        }
    }
    out.push('\n');
}

fn crossing_title(c: &Crossing) -> String {
    match c.mark {
        Stone::Stone => format!("{}: stone", c.name),
        Stone::Placed => format!("{}: stone, last move", c.name),
        Stone::Captured => format!("{}: captured, last move", c.name),
    }
}

fn stone(mark: Stone) -> String {
    match mark {
        Stone::Stone => format!(
            "<div style=\"margin:0 auto;width:12px;height:12px;border-radius:6px;\
             background-color:{}\"></div>",
            palette::STONE
        ),
        Stone::Placed => format!(
            "<div style=\"margin:0 auto;width:10px;height:10px;border-radius:7px;\
             background-color:{};border:2px solid {}\"></div>",
            palette::STONE,
            palette::PLACED_RIM
        ),
        Stone::Captured => format!(
            "<div style=\"font:bold 12px/12px {FONT};color:{}\">x</div>",
            palette::CAPTURED
        ),
    }
}

/// Text escaped for HTML, non-ASCII as character references.
fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in super::escape(s).chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let _ = write!(out, "&#{};", c as u32);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{Colour, Shade, counted};
    use super::*;
    use crate::geom::{Geometry, Sq};
    use crate::side::Side;

    fn board(flip: bool) -> Board {
        Board::new(Geometry::EIGHT, flip, |s| Square {
            piece: (s == Sq(0)).then(|| counted(Side::A, 3, "tower")),
            shade: Shade::of(Geometry::EIGHT, s),
            marked: s == Sq(9),
        })
    }

    #[test]
    fn every_square_numbered_pieces_labelled_and_marked() {
        let h = html_table(&board(false));
        for n in 1..=64 {
            assert!(h.contains(&format!(">{n}</div>")), "{n}");
        }
        assert!(h.contains("title=\"1: black tower of 3\""), "{h}");
        assert!(h.contains("title=\"10, last move\""), "{h}");
        assert!(h.contains(">3</div>"));
        assert!(h.is_ascii());
        assert!(!h.contains("position") && !h.contains("class="));
    }

    #[test]
    fn a_turned_board_starts_with_the_last_square() {
        let h = html_table(&board(true));
        let first = h.find("title=\"64\"").unwrap();
        let one = h.find("title=\"1:").unwrap();
        assert!(first < one);
    }

    #[test]
    fn labels_are_escaped_and_ascii() {
        let mut b = board(false);
        b.squares[5].piece = Some(Piece {
            side: Side::B,
            colour: Colour::Red,
            kind: Kind::Crowned,
            label: "<\u{2605}>".into(),
            ascii: "*R*".into(),
            name: "red \"boss\"".into(),
        });
        let h = html_table(&b);
        assert!(h.contains("&lt;&#9733;&gt;"), "{h}");
        assert!(h.contains("red &quot;boss&quot;"), "{h}");
    }
}
