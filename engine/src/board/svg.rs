//! The board as a self-contained SVG image (`pbem show --svg`,
//! and the drawing a web archive shows): the same information as the
//! mail's HTML table, in the same colours, with no external resource
//! (no fonts, images or stylesheets to fetch).

use super::{Board, Crossing, Kind, Stone, escape, palette};
use std::fmt::Write as _;

/// A square's side in user units.
pub(super) const SQUARE: u32 = 48;
/// The frame around the board.
pub(super) const FRAME: u32 = 6;
pub(super) const FONT: &str = "Arial,Helvetica,sans-serif";

/// The board as an `<svg>` document: squares in two shades (heaven in its
/// own), each numbered at its top left; pieces as discs with their label
/// and a `<title>` naming them; the last move's squares highlighted;
/// turned when `board.flip`; stones on the crossings.
pub fn svg(board: &Board) -> String {
    let g = board.geometry;
    let w = u32::from(g.width) * SQUARE + 2 * FRAME;
    let h = u32::from(g.height) * SQUARE + 2 * FRAME;
    let mut out = String::with_capacity(300 * g.squares() as usize);
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"{FONT}\">"
    );
    let _ = writeln!(
        out,
        "<rect width=\"{w}\" height=\"{h}\" fill=\"{}\"/>",
        palette::LINE
    );
    for vr in 0..g.height {
        for vc in 0..g.width {
            square(&mut out, board, vr, vc);
        }
    }
    if let Some(points) = &board.points {
        for c in points {
            crossing(&mut out, board, c);
        }
    }
    out.push_str("</svg>\n");
    out
}

fn square(out: &mut String, board: &Board, vr: u8, vc: u8) {
    let s = board.shown_at(vr, vc);
    let Some(sq) = board.squares.get(s.index()) else {
        return;
    };
    let x = FRAME + u32::from(vc) * SQUARE;
    let y = FRAME + u32::from(vr) * SQUARE;
    let n = s.number();
    let mut title = format!("{n}");
    if let Some(p) = &sq.piece {
        let _ = write!(title, ": {}", p.name);
    }
    if sq.marked {
        title.push_str(", last move");
    }
    let _ = writeln!(
        out,
        "<g><title>{}</title><rect x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" \
         fill=\"{}\"/><text x=\"{}\" y=\"{}\" font-size=\"10\" fill=\"{}\">{n}</text>",
        escape(&title),
        palette::square(sq.shade, sq.marked),
        x + 3,
        y + 11,
        palette::number(sq.shade),
    );
    if let Some(p) = &sq.piece {
        let (fill, rim, ink) = palette::disc(p.colour);
        let (cx, cy) = (x + SQUARE / 2, y + SQUARE / 2 + 4);
        let (stroke, width) = match p.kind {
            Kind::Crowned => (palette::PLACED_RIM, 4),
            Kind::Single | Kind::Counted(_) => (rim, 2),
        };
        let _ = writeln!(
            out,
            "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"15\" fill=\"{fill}\" stroke=\"{stroke}\" \
             stroke-width=\"{width}\"/><text x=\"{cx}\" y=\"{}\" font-size=\"15\" \
             font-weight=\"bold\" text-anchor=\"middle\" fill=\"{ink}\">{}</text>",
            cy + 5,
            escape(&p.label)
        );
    }
    out.push_str("</g>\n");
}

fn crossing(out: &mut String, board: &Board, c: &Crossing) {
    let (vr, vc) = board.shown_line(c.row, c.col);
    let x = FRAME + u32::from(vc) * SQUARE;
    let y = FRAME + u32::from(vr) * SQUARE;
    let title = match c.mark {
        Stone::Stone => format!("{}: stone", c.name),
        Stone::Placed => format!("{}: stone, last move", c.name),
        Stone::Captured => format!("{}: captured, last move", c.name),
    };
    let _ = write!(out, "<g><title>{}</title>", escape(&title));
    match c.mark {
        Stone::Stone => {
            let _ = write!(
                out,
                "<circle cx=\"{x}\" cy=\"{y}\" r=\"8\" fill=\"{}\"/>",
                palette::STONE
            );
        }
        Stone::Placed => {
            let _ = write!(
                out,
                "<circle cx=\"{x}\" cy=\"{y}\" r=\"8\" fill=\"{}\" stroke=\"{}\" \
                 stroke-width=\"3\"/>",
                palette::STONE,
                palette::PLACED_RIM
            );
        }
        Stone::Captured => {
            let _ = write!(
                out,
                "<path d=\"M{} {}l12 12m0 -12l-12 12\" stroke=\"{}\" stroke-width=\"3\"/>",
                x - 6,
                y - 6,
                palette::CAPTURED
            );
        }
    }
    out.push_str("</g>\n");
}

#[cfg(test)]
mod tests {
    use super::super::{Shade, Square, counted};
    use super::*;
    use crate::geom::{Geometry, Sq};
    use crate::side::Side;

    #[test]
    fn numbers_pieces_and_stones_are_drawn() {
        let mut b = Board::new(Geometry::EIGHT, false, |s| Square {
            piece: (s == Sq(0)).then(|| counted(Side::B, 2, "tooth")),
            shade: Shade::of(Geometry::EIGHT, s),
            marked: s == Sq(0),
        });
        b.points = Some(vec![Crossing {
            row: 1,
            col: 1,
            mark: Stone::Placed,
            name: "1/10".into(),
        }]);
        let s = svg(&b);
        assert!(s.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert_eq!(s.matches("<rect x=").count(), 64);
        assert!(
            s.contains("<title>1: red tooth of 2, last move</title>"),
            "{s}"
        );
        assert!(s.contains("<title>1/10: stone, last move</title>"), "{s}");
        assert!(
            s.contains("cx=\"54\" cy=\"54\""),
            "crossing 1/1 at 6+48: {s}"
        );
        assert!(!s.contains("href"));
    }
}
