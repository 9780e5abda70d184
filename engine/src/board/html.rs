//! The board as an HTML table for the HTML part of a mail: one small
//! `<style>` block ([`html_style`], for the mail's `<head>`) styles it by
//! element and class, and the table itself carries what survives a client
//! that strips `<style>` (Gmail for other accounts) or blocks images:
//! `bgcolor` for the squares' shades and the grid lines, `width` and
//! `height` on the first row and column, `title` on every square and
//! stone, and each piece as `<font color>` with its label (`&#9679;` when
//! it has none), so that the bare table still shows shades, numbers and
//! pieces and stays narrow. No positioning (Gmail strips it), no images.
//!
//! The table is at most [`WIDTH`] pixels wide whatever the board, so it
//! fits a 360 px phone: the square's side comes from the number of
//! columns. Boards with crossings (Guerrilla Checkers) get a thin row and
//! column of grid line between the squares, where the stones stand.
//!
//! The output is ASCII (anything else as a character reference) in short
//! lines, so a mail carries it as 7bit text without growing.

use super::{Board, Colour, Crossing, Kind, Piece, Shade, Stone, palette, push_number};
use std::fmt::Write as _;

/// The widest a board's squares and lines may be, in pixels: with its
/// 2 px frame and a client's 8 px margins it fits a 360 px screen.
pub const WIDTH: u32 = 328;
/// A square's side when there is room.
const SQUARE: u32 = 40;
/// A grid line's width where crossings hold stones.
const LINE: u32 = 8;
/// The height of a square's number above its disc.
const NUMBER: u32 = 11;
const FONT: &str = "Arial,Helvetica,sans-serif";

/// The sizes of one board's drawing.
#[derive(Clone, Copy)]
struct Metrics {
    square: u32,
    line: u32,
    disc: u32,
}

fn metrics(board: &Board) -> Metrics {
    let cols = u32::from(board.geometry.width.max(1));
    let line = if board.points.is_some() { LINE } else { 0 };
    let square = (WIDTH.saturating_sub(line * (cols + 1)) / cols).clamp(16, SQUARE);
    Metrics {
        square,
        line,
        disc: square.saturating_sub(NUMBER + 2).max(10),
    }
}

/// A piece's class: its colour.
fn colour_class(c: Colour) -> &'static str {
    match c {
        Colour::Black => "k",
        Colour::Red => "r",
        Colour::White => "w",
        Colour::Blue => "u",
    }
}

/// A piece's colour where there is no disc to paint: the text of its
/// label on the square (a white piece in its rim's grey, to be read on a
/// light square).
fn bare_ink(c: Colour) -> &'static str {
    match c {
        Colour::White => palette::disc(c).1,
        _ => palette::disc(c).0,
    }
}

/// The rules of the `<style>` block for `board`'s table and legend
/// ([`html_table`], [`html_legend`]).
pub fn html_style(board: &Board) -> String {
    let m = metrics(board);
    let inner = m.disc - 4;
    let crowned = m.disc - 6;
    // Short lines, as the table's.
    let mut css = format!(
        ".b{{border:2px solid {line};margin:6px 0}}\n\
         .b td{{padding:0;text-indent:2px;vertical-align:top;text-align:left;\n\
         font-size:9px;line-height:{NUMBER}px;color:rgba(0,0,0,.6)}}\n\
         .b br{{display:none}}\n\
         .b font,.g font{{display:block;margin:0 auto;\n\
         width:{inner}px;height:{inner}px;border:2px solid;border-radius:50%;\n\
         font:bold {fs}px/{inner}px Arial;text-align:center;text-indent:0}}\n\
         .g font{{display:inline-block;vertical-align:middle;margin:1px 2px}}\n\
         .b .c,.g .c{{width:{crowned}px;height:{crowned}px;line-height:{crowned}px;\n\
         border:3px double {rim}}}\n\
         .b .e,.g .e{{font-size:0}}\n",
        line = palette::LINE,
        fs = (inner * 3 / 5).max(8),
        rim = palette::PLACED_RIM,
    );
    let mut colours: Vec<Colour> = board
        .squares
        .iter()
        .filter_map(|s| Some(s.piece.as_ref()?.colour))
        .collect();
    colours.dedup();
    colours.sort_by_key(|c| colour_class(*c));
    colours.dedup();
    for c in colours {
        let (fill, rim, ink) = palette::disc(c);
        let k = colour_class(c);
        let _ = writeln!(
            css,
            ".{k}{{background-color:{fill};border-color:{rim};color:{ink}}}"
        );
    }
    if board.points.is_some() {
        let _ = write!(
            css,
            ".b td.o,.b td.q{{background-color:transparent}}\n\
             .b i{{display:block;margin:-3px;width:{s}px;height:{s}px;\n\
             border-radius:50%;background-color:{stone};box-sizing:border-box}}\n\
             .b td.q i{{border:2px solid {rim}}}\n\
             .b td.x{{font:bold 9px/{l}px {FONT};text-align:center}}\n",
            l = m.line,
            // A stone is wider than the line it stands on; its margins
            // keep the line's width.
            s = m.line + 6,
            stone = palette::STONE,
            rim = palette::PLACED_RIM,
        );
    }
    css
}

/// The board as a `<table>`: squares in two shades (heaven in its own),
/// each with its number; pieces as discs with their label; the last move
/// highlighted; turned when `board.flip`; stones on crossings.
pub fn html_table(board: &Board) -> String {
    let g = board.geometry;
    let m = metrics(board);
    let mut out = String::with_capacity(100 * g.squares() as usize);
    let lines = board.points.is_some();
    let _ = writeln!(
        out,
        "<table class=\"b\" role=\"presentation\" cellpadding=\"0\" cellspacing=\"0\"\n\
         border=\"0\" bgcolor=\"{}\">",
        background(board)
    );
    let (rows, cols) = if lines {
        (2 * g.height + 1, 2 * g.width + 1)
    } else {
        (g.height, g.width)
    };
    let mut sizes = String::with_capacity(32);
    for vr in 0..rows {
        out.push_str("<tr>\n");
        if lines && vr > 0 && vr % 2 == 0 {
            line_row(&mut out, board, vr / 2, cols, m.line);
            out.push_str("</tr>\n");
            continue;
        }
        for vc in 0..cols {
            // Sizes on the first row and column only: they size the
            // whole grid. Written without the formatting machinery (a
            // board is drawn for every mail), into one buffer for all
            // the cells.
            let size = |sizes: &mut String, w: u32, h: u32| {
                sizes.clear();
                size_onto(sizes, (vr == 0).then_some(w), (vc == 0).then_some(h));
            };
            let (sq, ln) = (m.square, m.line);
            if !lines {
                size(&mut sizes, sq, sq);
                square_cell(&mut out, board, (vr, vc), &sizes);
                continue;
            }
            match (vr % 2, vc % 2) {
                (1, 1) => {
                    size(&mut sizes, sq, sq);
                    square_cell(&mut out, board, (vr / 2, vc / 2), &sizes);
                }
                (0, 0) => {
                    size(&mut sizes, ln, ln);
                    crossing_cell(&mut out, board, (vr / 2, vc / 2), &sizes);
                }
                (0, _) => {
                    size(&mut sizes, sq, ln);
                    let _ = writeln!(out, "<td{sizes}></td>");
                }
                _ => {
                    size(&mut sizes, ln, sq);
                    let _ = writeln!(out, "<td{sizes}></td>");
                }
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    out
}

/// The `width` and `height` attributes of a cell that has them.
fn size_onto(out: &mut String, width: Option<u32>, height: Option<u32>) {
    for (name, px) in [(" width=\"", width), (" height=\"", height)] {
        if let Some(px) = px {
            out.push_str(name);
            push_number(out, u16::try_from(px).unwrap_or(u16::MAX));
            out.push('"');
        }
    }
}

/// The table's background: the grid lines' colour where there are lines
/// between the squares, else the light squares' shade, which their
/// cells then need not repeat.
fn background(board: &Board) -> &'static str {
    match board.points {
        Some(_) => palette::LINE,
        None => palette::square(Shade::Light, false),
    }
}

/// The square shown at display row and column `at`, with the `size`
/// attributes it carries.
fn square_cell(out: &mut String, board: &Board, (vr, vc): (u8, u8), size: &str) {
    let s = board.shown_at(vr, vc);
    let Some(sq) = board.squares.get(s.index()) else {
        out.push_str("<td></td>\n");
        return;
    };
    let n = s.number();
    // Short lines: a mail carries them as they are (7bit), not encoded.
    let shade = palette::square(sq.shade, sq.marked);
    out.push_str("<td");
    out.push_str(size);
    if shade != background(board) {
        out.push_str(" bgcolor=\"");
        out.push_str(shade);
        out.push('"');
    }
    // A title where the square holds or marks something: its number is
    // on show anyway.
    if sq.piece.is_some() || sq.marked {
        out.push_str("\ntitle=\"");
        square_title_onto(out, board, s);
        out.push_str("\">\n");
    } else {
        out.push('>');
    }
    push_number(out, n);
    if let Some(p) = &sq.piece {
        // A line of its own without the style block: a narrow square
        // holds the number above the label, not beside it.
        out.push_str("<br>");
        disc_into(out, p);
    }
    out.push_str("</td>\n");
}

/// What a square's title says: its number, its piece, the last move.
pub fn square_title(board: &Board, s: crate::geom::Sq) -> String {
    let mut title = String::with_capacity(32);
    title_words(&mut title, board, s, |out, name| out.push_str(name));
    title
}

/// [`square_title`] onto `out` as a title attribute's text (the piece's
/// name escaped; the rest is digits and words that need none).
fn square_title_onto(out: &mut String, board: &Board, s: crate::geom::Sq) {
    title_words(out, board, s, text_into);
}

/// The words of [`square_title`] onto `out`, the piece's name through
/// `name`.
fn title_words(
    out: &mut String,
    board: &Board,
    s: crate::geom::Sq,
    name: impl Fn(&mut String, &str),
) {
    push_number(out, s.number());
    if let Some(sq) = board.squares.get(s.index()) {
        if let Some(p) = &sq.piece {
            out.push_str(": ");
            name(out, &p.name);
        }
        if sq.marked {
            out.push_str(", last move");
        }
    }
}

/// A piece: a disc with its label; bare, the label in the piece's colour.
fn disc(p: &Piece) -> String {
    let mut out = String::new();
    disc_into(&mut out, p);
    out
}

/// [`disc`], onto `out`.
fn disc_into(out: &mut String, p: &Piece) {
    out.push_str("<font class=\"");
    out.push_str(colour_class(p.colour));
    if p.kind == Kind::Crowned {
        out.push_str(" c");
    }
    if p.label.is_empty() {
        // Seen only without the style block, where there is no disc.
        out.push_str(" e");
    }
    out.push_str("\" color=\"");
    out.push_str(bare_ink(p.colour));
    out.push_str("\">");
    if p.label.is_empty() {
        out.push_str("&#9679;");
    } else {
        text_into(out, &p.label);
    }
    out.push_str("</font>");
}

/// A row of grid line below the first (whose cells size the columns):
/// its stones in cells of their own, each run of bare line between them
/// one cell.
fn line_row(out: &mut String, board: &Board, line: u8, cols: u8, height: u32) {
    let mut run = 0u8;
    let flush = |out: &mut String, run: u8, at: u8| {
        let h = if at == run {
            format!(" height=\"{height}\"")
        } else {
            String::new()
        };
        match run {
            0 => {}
            1 => {
                let _ = writeln!(out, "<td{h}></td>");
            }
            n => {
                let _ = writeln!(out, "<td colspan=\"{n}\"{h}></td>");
            }
        }
    };
    for vc in 0..cols {
        let (row, col) = board.shown_line(line, vc / 2);
        if vc % 2 == 1 || board.crossing(row, col).is_none() {
            run += 1;
            continue;
        }
        flush(out, run, vc);
        run = 0;
        let size = if vc == 0 {
            format!(" height=\"{height}\"")
        } else {
            String::new()
        };
        crossing_cell(out, board, (line, vc / 2), &size);
    }
    flush(out, run, cols);
}

/// A crossing of grid lines, with its stone if it has one: the cell is
/// the stone's colour without the style block, a round stone with it.
fn crossing_cell(out: &mut String, board: &Board, (vr, vc): (u8, u8), size: &str) {
    let (row, col) = board.shown_line(vr, vc);
    match board.crossing(row, col) {
        None => {
            let _ = writeln!(out, "<td{size}></td>");
        }
        Some(c) => {
            let title = text(&crossing_title(c));
            let _ = match c.mark {
                Stone::Stone => writeln!(
                    out,
                    "<td{size} class=\"o\" bgcolor=\"{}\"\ntitle=\"{title}\"><i></i></td>",
                    palette::STONE
                ),
                Stone::Placed => writeln!(
                    out,
                    "<td{size} class=\"q\" bgcolor=\"{}\"\ntitle=\"{title}\"><i></i></td>",
                    palette::PLACED_RIM
                ),
                // `<b>`: a `<font>` in the table is drawn as a disc.
                Stone::Captured => writeln!(
                    out,
                    "<td{size} class=\"x\"\ntitle=\"{title}\"><b style=\"color:{}\">x</b></td>",
                    palette::CAPTURED
                ),
            };
        }
    }
}

fn crossing_title(c: &Crossing) -> String {
    match c.mark {
        Stone::Stone => format!("{}: stone", c.name),
        Stone::Placed => format!("{}: stone, last move", c.name),
        Stone::Captured => format!("{}: captured, last move", c.name),
    }
}

/// What the picture shows, in words, from the board's own data: each kind
/// of piece on it (its disc and its name), the squares' numbers, the last
/// move's highlight, the shaded squares of a meaning of their own, the
/// stones on the crossings.
pub fn html_legend(board: &Board) -> String {
    let mut items: Vec<String> = Vec::new();
    let mut pieces: Vec<&Piece> = board
        .squares
        .iter()
        .filter_map(|s| s.piece.as_ref())
        .collect();
    pieces.sort_by(|a, b| {
        (a.side, a.kind == Kind::Crowned, &a.label).cmp(&(
            b.side,
            b.kind == Kind::Crowned,
            &b.label,
        ))
    });
    pieces.dedup_by(|a, b| a.name == b.name);
    for p in pieces {
        items.push(format!("{}\n{}", disc(p), text(&p.name)));
    }
    items.push("small numbers: the squares' numbers".into());
    // Swatches are `<b>`: a `<font>` in the legend is drawn as a disc.
    let swatch =
        |colour: &str, what: &str| format!("<b style=\"color:{colour}\">&#9632;</b>\n{what}");
    if board.squares.iter().any(|s| s.marked) {
        items.push(swatch(palette::square(Shade::Dark, true), "the last move"));
    }
    if board.squares.iter().any(|s| s.shade == Shade::Heaven) {
        items.push(swatch(palette::square(Shade::Heaven, false), "heaven"));
    }
    if let Some(points) = &board.points {
        items.push(format!(
            "<b style=\"color:{}\">&#9679;</b>\na stone on a crossing of the grid lines",
            palette::STONE
        ));
        if points.iter().any(|p| p.mark == Stone::Placed) {
            items.push(swatch(palette::PLACED_RIM, "ringed: a stone just placed"));
        }
        if points.iter().any(|p| p.mark == Stone::Captured) {
            items.push(format!(
                "<b style=\"color:{}\">x</b>\na stone the last move captured",
                palette::CAPTURED
            ));
        }
    }
    let mut out = format!("<p class=\"g\">{}</p>\n", items.join(";\n"));
    for note in &board.notes {
        // In lines of 72 at most, as the rest of the HTML.
        let _ = write!(out, "<p>\n{}</p>\n", crate::diagram::wrap(&text(note), 72));
    }
    out
}

/// Text escaped for HTML, non-ASCII as character references.
fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    text_into(&mut out, s);
    out
}

/// [`text`], onto `out`, in one pass.
fn text_into(out: &mut String, s: &str) {
    super::escape_onto(out, s, true, true);
}

#[cfg(test)]
mod tests {
    use super::super::{Colour, Shade, Square, counted};
    use super::*;
    use crate::geom::{Geometry, Sq};
    use crate::side::Side;

    #[test]
    fn a_number_is_written_as_format_writes_it() {
        for n in 0..=u16::MAX {
            let mut out = String::from("x");
            push_number(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
    }

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
            assert!(
                [">", ">\n"].iter().any(|a| [
                    h.contains(&format!("{a}{n}</td>")),
                    h.contains(&format!("{a}{n}<br>"))
                ]
                .contains(&true)),
                "{n}"
            );
        }
        assert!(h.contains("title=\"1: black tower of 3\""), "{h}");
        assert!(h.contains("title=\"10, last move\""), "{h}");
        assert!(h.contains(">3</font>"));
        assert!(h.is_ascii());
        assert!(!h.contains("position") && !h.contains("style="));
        // Light squares take the table's background.
        assert!(h.starts_with("<table class=\"b\""));
        assert!(h.contains("bgcolor=\"#f0d9b5\">"));
        assert_eq!(h.matches("#f0d9b5").count(), 1, "{h}");
    }

    #[test]
    fn a_turned_board_starts_with_the_last_square() {
        let h = html_table(&board(true));
        let first = h.find(">64</td>").unwrap();
        let one = h.find("title=\"1:").unwrap();
        assert!(first < one);
    }

    #[test]
    fn every_board_fits_its_width() {
        for g in [Geometry::EIGHT, Geometry::TEN] {
            for lines in [false, true] {
                let mut b = Board::new(g, false, |s| Square {
                    piece: None,
                    shade: Shade::of(g, s),
                    marked: false,
                });
                if lines {
                    b.points = Some(Vec::new());
                }
                let m = metrics(&b);
                let cols = u32::from(g.width);
                assert!(m.square * cols + m.line * (cols + 1) <= WIDTH);
                assert!(m.disc + NUMBER <= m.square);
            }
        }
    }

    #[test]
    fn the_legend_names_the_pieces_on_the_board_once() {
        let mut b = board(false);
        b.squares[7].piece = Some(counted(Side::A, 3, "tower"));
        b.squares[20].piece = Some(counted(Side::B, 2, "tower"));
        let l = html_legend(&b);
        assert_eq!(l.matches("black tower of 3").count(), 1, "{l}");
        assert!(l.contains("red tower of 2"), "{l}");
        assert!(l.contains("the last move"), "{l}");
        assert!(!l.contains("heaven") && !l.contains("stone"), "{l}");
        b.notes = vec!["Black's rule: <none>.".into()];
        let l = html_legend(&b);
        assert!(
            l.contains("<p>\nBlack&#39;s rule: &lt;none&gt;.\n</p>"),
            "{l}"
        );
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
