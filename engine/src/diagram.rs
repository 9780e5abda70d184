//! The ASCII board shared by all games' diagrams: a grid of boxed squares,
//! fit for a plain-text email in a fixed-width font.
//!
//! Empty squares show their number, so players read coordinates off the
//! board (Bomba's advice for play by mail, rules/new-millennium-checkers.txt,
//! "Playing Pieces & Playing Board"); every row ends with the range of its
//! numbers, and a line of column numbers heads the board, so an occupied
//! square's number can be read off too: a board whose every square is
//! full (Mad Rooks and Mad Bishops at the start) shows no number at all
//! otherwise. The last move's squares are bracketed: `[B3]`.

use crate::board::{Board, Shade, Square, Words, push_number};
use crate::geom::{Geometry, Sq};

/// What one square shows.
#[derive(Clone, Copy, Debug, Default)]
pub struct Cell<'a> {
    /// The piece (`B3`, `r2`); empty: the square's number is shown.
    pub piece: &'a str,
    /// Padding character: `' '`, or a shade that marks a kind of square
    /// (Toroidal Checkers' heaven).
    pub fill: Option<char>,
    /// Part of the last move.
    pub marked: bool,
}

/// How many digits `n` has in decimal.
fn digits(n: u16) -> usize {
    match n {
        10_000.. => 5,
        1_000.. => 4,
        100.. => 3,
        10.. => 2,
        _ => 1,
    }
}

/// `n` times `c` onto `out` (a run of padding or rule).
fn push_run(out: &mut String, c: char, n: usize) {
    const DASHES: &str = "--------------------------------";
    const SPACES: &str = "                                ";
    match c {
        '-' if n <= DASHES.len() => out.push_str(&DASHES[..n]),
        ' ' if n <= SPACES.len() => out.push_str(&SPACES[..n]),
        _ => out.extend(std::iter::repeat_n(c, n)),
    }
}

/// Draws `geometry` with each square's [`Cell`]. `corner(r, c)` gives the
/// character at grid line crossing `(r, c)` (0..=height, 0..=width), `'+'`
/// by default; Guerrilla Checkers draws its stones there. With `flip` the
/// board is turned 180°, for the player who sits at the other end.
pub fn grid<'a>(
    geometry: Geometry,
    flip: bool,
    cell: impl Fn(Sq) -> Cell<'a>,
    corner: impl Fn(u8, u8) -> char,
) -> String {
    let (w, h) = (geometry.width, geometry.height);
    // Each square's cell and the width of what it shows: its piece, or
    // its number (written where it is drawn, not kept).
    let cells: Vec<(Cell<'a>, usize)> = (0..geometry.squares())
        .map(|s| {
            let c = cell(Sq(s));
            let width = if c.piece.is_empty() {
                digits(Sq(s).number())
            } else if c.piece.is_ascii() {
                c.piece.len()
            } else {
                c.piece.chars().count()
            };
            (c, width)
        })
        .collect();
    let inner = cells
        .iter()
        .map(|(_, w)| *w)
        .max()
        .unwrap_or(2)
        .max(digits(Sq(geometry.squares() - 1).number()));
    let order = |i: u8, n: u8| if flip { n - 1 - i } else { i };
    let line_order = |i: u8, n: u8| if flip { n - i } else { i };
    let mut out =
        String::with_capacity((usize::from(w) * (inner + 3) + 12) * (2 * usize::from(h) + 2));
    // The column numbers, each over its squares' numbers (right-aligned
    // as they are); turned with the board.
    column_numbers_onto(&mut out, (0..w).map(|vc| order(vc, w) + 1), inner);
    out.push('\n');
    for vr in 0..=h {
        // The rule above display row vr.
        let r_line = line_order(vr, h);
        for vc in 0..=w {
            let c_line = line_order(vc, w);
            out.push(corner(r_line, c_line));
            if vc < w {
                push_run(&mut out, '-', inner + 2);
            }
        }
        out.push('\n');
        if vr == h {
            break;
        }
        let r = order(vr, h);
        out.push('|');
        for vc in 0..w {
            let c = order(vc, w);
            let s = geometry.at(r, c);
            let (cell, width) = &cells[s.index()];
            let fill = cell.fill.unwrap_or(' ');
            let pad = inner - width;
            // Numbers line up to the right, pieces sit in the middle.
            let (left, right) = if cell.piece.is_empty() {
                (pad, 0)
            } else {
                (pad / 2 + pad % 2, pad / 2)
            };
            let (open, close) = if cell.marked {
                ('[', ']')
            } else {
                (fill, fill)
            };
            out.push(open);
            push_run(&mut out, fill, left);
            if cell.piece.is_empty() {
                push_number(&mut out, s.number());
            } else {
                out.push_str(cell.piece);
            }
            push_run(&mut out, fill, right);
            out.push(close);
            out.push('|');
        }
        out.push_str("  ");
        push_number(&mut out, geometry.at(r, 0).number());
        out.push('-');
        push_number(&mut out, geometry.at(r, w - 1).number());
        out.push('\n');
    }
    out
}

/// The line of column numbers over a grid whose squares are `inner`
/// wide: each number right-aligned over its squares' (` {:>inner$}  `).
#[cfg(test)]
fn column_numbers(numbers: impl Iterator<Item = u8>, inner: usize) -> String {
    let mut header = String::new();
    push_column_numbers(&mut header, numbers, inner);
    header
}

/// [`column_numbers`] onto `out`.
fn push_column_numbers(out: &mut String, numbers: impl Iterator<Item = u8>, inner: usize) {
    out.push(' ');
    for n in numbers {
        out.push(' ');
        push_run(out, ' ', inner.saturating_sub(digits(u16::from(n))));
        push_number(out, u16::from(n));
        out.push_str("  ");
    }
}

/// [`column_numbers`] onto `out`, without the spaces that end it.
fn column_numbers_onto(out: &mut String, numbers: impl Iterator<Item = u8>, inner: usize) {
    let start = out.len();
    push_column_numbers(out, numbers, inner);
    let end = start + out[start..].trim_end().len();
    out.truncate(end);
}

/// The ASCII board of `board` ([`grid`] reading the board's data): pieces
/// as the games write them, heaven squares shaded, stones on crossings.
pub fn ascii(board: &Board) -> String {
    grid(
        board.geometry,
        board.flip,
        |s| match board.squares.get(s.index()) {
            Some(sq) => Cell {
                piece: sq.piece.as_ref().map_or("", |p| &p.ascii),
                fill: (sq.shade == Shade::Heaven).then_some(crate::board::HEAVEN_FILL),
                marked: sq.marked,
            },
            None => Cell::default(),
        },
        |r, c| board.crossing(r, c).map_or('+', |p| p.mark.ascii()),
    )
}

/// A game's diagram in its parts, each made once: the board as data, its
/// ASCII drawing and the words around it. A mail shows the drawing in
/// its plain text and, in its HTML part, a table drawn from the same
/// data under the same caption ([`Diagram::above`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    /// The board as data ([`crate::game::Game::board`]).
    pub board: Board,
    /// [`ascii`] of the board.
    pub ascii: String,
    /// The words above and below the drawing.
    pub words: Words,
}

impl Diagram {
    /// The diagram of `pos` as `view` says: the board built once, drawn
    /// once.
    pub fn of<G: crate::game::Game>(pos: &G, view: &crate::game::View) -> Diagram {
        Diagram::new(pos.board(view), pos.diagram_words(view))
    }

    /// The diagram of `board` between `words`: the board drawn.
    pub fn new(board: Board, words: Words) -> Diagram {
        Diagram {
            ascii: ascii(&board),
            board,
            words,
        }
    }

    /// The words above the drawing: the caption and the game's counts.
    pub fn above(&self) -> &str {
        &self.words.above
    }

    /// The whole diagram as a plain-text mail shows it ([`crate::game::Game::diagram`]).
    pub fn text(&self) -> String {
        let (above, below) = (&self.words.above, &self.words.below);
        let mut out = String::with_capacity(above.len() + self.ascii.len() + below.len());
        out.push_str(above);
        out.push_str(&self.ascii);
        out.push_str(below);
        out
    }
}

/// The board of the games whose pieces are a side and a number (Boom &
/// Zoom's towers, Dragons Teeth's teeth, M.A.D.'s stacks; `what` names
/// one): `B3` for black, `R2` for red; squares in `marked` marked; turned
/// for side A's seat (its pieces start at the top).
pub fn counted_board(
    geometry: Geometry,
    view: &crate::game::View,
    marked: &[Sq],
    what: &str,
    piece: impl Fn(Sq) -> Option<(crate::game::Side, u8)>,
) -> Board {
    Board::new(geometry, view.seat == Some(crate::game::Side::A), |s| {
        Square {
            piece: piece(s).map(|(side, n)| crate::board::counted(side, n, what)),
            shade: Shade::of(geometry, s),
            marked: marked.contains(&s),
        }
    })
}

/// How to read a square's number off the board, for every game's legend.
pub const NUMBERS: &str = "Empty squares show their number; any square's number is the \
     first of its row plus its column number, less one.";

/// A plain `'+'` at every crossing.
pub fn plain_corner(_: u8, _: u8) -> char {
    '+'
}

/// Wraps `text` to `width` columns at spaces (for legends).
pub fn wrap(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for para in text.lines() {
        // The length of the line being made.
        let mut len = 0;
        let mut words = para.split_whitespace();
        while let Some(word) = words.next() {
            // "[ ]" is one word: never break between its brackets.
            let then = if word == "[" { words.next() } else { None };
            let wide = word.len() + then.map_or(0, |t| 1 + t.len());
            if len > 0 && len + 1 + wide > width {
                out.push('\n');
                len = 0;
            } else if len > 0 {
                out.push(' ');
                len += 1;
            }
            out.push_str(word);
            if let Some(t) = then {
                out.push(' ');
                out.push_str(t);
            }
            len += wide;
        }
        out.push('\n');
    }
    out
}

/// The caption above every board: the game, the move number and whose turn
/// it is, or how the game ended.
pub fn status_line<G: crate::game::Game>(pos: &G, view: &crate::game::View) -> String {
    let rules = G::INFO;
    match view.ended.clone().or_else(|| crate::game::outcome(pos)) {
        Some(end) => {
            let result = match end.outcome {
                crate::game::Outcome::Win(s) => format!("{} wins", rules.side_name(s)),
                crate::game::Outcome::Draw => "drawn".to_string(),
            };
            wrap(
                &format!(
                    "{} after {} moves: game over, {result} ({}).",
                    rules.name, view.ply, end.reason
                ),
                72,
            )
        }
        None => format!(
            "{}: move {}, {} to play.\n",
            rules.name,
            view.ply + 1,
            rules.side_name(pos.turn())
        ),
    }
}

/// " Last move: 22-15, marked [ ]." or nothing.
pub fn last_move_legend(view: &crate::game::View) -> String {
    match &view.last {
        // Only stones need the geometry for their names, and only the 8x8
        // Guerrilla Checkers has stones.
        Some(n) => format!(" Last move: {}, marked [ ].", n.canonical(Geometry::EIGHT)),
        None => String::new(),
    }
}

/// Why a picture of a board (a game's `from_diagram`) is not a position:
/// each variant names what was wrong and quotes the cell or count.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DiagramError {
    #[error("expected {expected} cells, found {found}")]
    CellCount { expected: usize, found: usize },
    #[error("bad cell {cell:?} at square {square}")]
    Cell { cell: String, square: usize },
    #[error("bad {size} in {cell:?} at square {square}: {size}s run 1-{max}")]
    Size {
        size: &'static str,
        cell: String,
        square: usize,
        max: u8,
    },
    #[error("expected one {side} boss, found {found}")]
    Bosses { side: &'static str, found: usize },
    #[error("expected {expected} rows ({what}), found {found}")]
    RowCount {
        expected: usize,
        what: &'static str,
        found: usize,
    },
    #[error("{row}: expected {expected} {what}, found {found}")]
    RowLength {
        row: String,
        expected: usize,
        what: &'static str,
        found: usize,
    },
    #[error("bad {what} cell {cell:?} (use {marks})")]
    Mark {
        what: &'static str,
        cell: String,
        marks: &'static str,
    },
    #[error("a supply of {supply} stones: at most {max}")]
    Supply { supply: u8, max: u8 },
    #[error("quiet move count {quiet} is over {max}")]
    Quiet { quiet: u8, max: u8 },
    #[error("both sides have moved off {0} or more")]
    BothOff(u8),
    #[error("{side} to move already stands on {square} in its goal row: the game would be over")]
    Over { side: &'static str, square: String },
}

/// The cells of a picture of a board, as the games' `from_diagram` and
/// the tests write positions: one token per square, separated by white
/// space, square 1 first (`.` for empty, the game's own marks for pieces).
///
/// # Errors
/// Not exactly `squares` cells.
pub fn picture_cells(rows: &str, squares: usize) -> Result<Vec<&str>, DiagramError> {
    let cells: Vec<&str> = rows.split_whitespace().collect();
    if cells.len() != squares {
        return Err(DiagramError::CellCount {
            expected: squares,
            found: cells.len(),
        });
    }
    Ok(cells)
}

/// A cell of a picture of stacked pieces (Boom & Zoom's towers, Dragons
/// Teeth's teeth, Mad Checkers' stacks): `.` empty (0), `B1`..`B{max}`
/// black ones of that size (positive), `R1`.. red ones (negative). `size`
/// names the size in the error: `bad height in "B4" at square 9`.
///
/// # Errors
/// Any other cell, or a size outside 1-`max`.
pub fn sized_cell(c: &str, size: &'static str, max: u8, index: usize) -> Result<i8, DiagramError> {
    let bad = || DiagramError::Cell {
        cell: c.to_string(),
        square: index + 1,
    };
    match c {
        "." => Ok(0),
        c if c.len() == 2 && (c.starts_with('B') || c.starts_with('R')) => {
            let n: u8 = c[1..].parse().map_err(|_| bad())?;
            if !(1..=max).contains(&n) {
                return Err(DiagramError::Size {
                    size,
                    cell: c.to_string(),
                    square: index + 1,
                    max,
                });
            }
            let n = n as i8;
            Ok(if c.starts_with('B') { n } else { -n })
        }
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_numbers_are_written_as_format_writes_them() {
        for inner in 0..6 {
            let numbers = [1u8, 9, 10, 42, 99, 100, 255];
            let mut expected = String::from(" ");
            for n in numbers {
                let _ = std::fmt::Write::write_fmt(&mut expected, format_args!(" {n:>inner$}  "));
            }
            assert_eq!(column_numbers(numbers.into_iter(), inner), expected);
        }
    }

    #[test]
    fn empty_squares_show_numbers_and_fit_72_columns() {
        for g in [Geometry::EIGHT, Geometry::TEN] {
            let d = grid(g, false, |_| Cell::default(), plain_corner);
            assert!(d.lines().all(|l| l.chars().count() <= 72), "{d}");
            let one = if g.squares() > 99 {
                "|   1 |"
            } else {
                "|  1 |"
            };
            assert!(d.contains(one), "numbers line up right: {d}");
            assert!(d.contains(&g.squares().to_string()));
        }
    }

    #[test]
    fn picture_errors_quote_the_cell_and_name_the_square() {
        assert_eq!(sized_cell("R2", "height", 3, 0), Ok(-2));
        let e = sized_cell("B4", "height", 3, 8).unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad height in \"B4\" at square 9: heights run 1-3"
        );
        let e = sized_cell("x", "strength", 3, 0).unwrap_err();
        assert_eq!(e.to_string(), "bad cell \"x\" at square 1");
        let e = picture_cells(". .", 64).unwrap_err();
        assert_eq!(
            e,
            DiagramError::CellCount {
                expected: 64,
                found: 2
            }
        );
    }

    #[test]
    fn wrap_keeps_brackets_together() {
        let w = wrap(&format!("{} marked [ ].", "x".repeat(63)), 72);
        assert!(w.contains("[ ]"), "{w}");
    }

    /// The wrap as it was first written, word by word into strings: the
    /// one-pass [`wrap`] must break every text where it did.
    fn wrap_by_words(text: &str, width: usize) -> String {
        let mut out = String::new();
        for para in text.lines() {
            let mut line = String::new();
            let words = para
                .split_whitespace()
                .fold(Vec::<String>::new(), |mut v, w| {
                    match v.last_mut() {
                        Some(last) if last == "[" => {
                            last.push(' ');
                            last.push_str(w);
                        }
                        _ => v.push(w.to_string()),
                    }
                    v
                });
            for word in &words {
                if !line.is_empty() && line.len() + 1 + word.len() > width {
                    out.push_str(&line);
                    out.push('\n');
                    line.clear();
                }
                if !line.is_empty() {
                    line.push(' ');
                }
                line.push_str(word);
            }
            out.push_str(&line);
            out.push('\n');
        }
        out
    }

    #[test]
    fn wrap_breaks_where_the_word_by_word_wrap_did() {
        let mut rng = fastrand::Rng::with_seed(11);
        let pieces = [
            "[",
            "]",
            "[ ]",
            "x",
            "word",
            "a-long-word-of-many-letters",
            "é",
            " ",
            "  ",
            "\n",
            "\t",
            ".",
        ];
        for _ in 0..5000 {
            let text: String = (0..rng.usize(0..40))
                .map(|_| pieces[rng.usize(..pieces.len())])
                .collect::<Vec<_>>()
                .join(if rng.bool() { " " } else { "" });
            let width = rng.usize(1..30);
            assert_eq!(
                wrap(&text, width),
                wrap_by_words(&text, width),
                "{text:?} {width}"
            );
        }
    }

    #[test]
    fn flip_turns_the_board() {
        let g = Geometry::EIGHT;
        let d = grid(g, true, |_| Cell::default(), plain_corner);
        let first_row = d.lines().nth(2).unwrap();
        assert!(first_row.starts_with("| 64 |"), "{first_row}");
        assert!(first_row.ends_with("57-64"), "{first_row}");
        let header = d.lines().next().unwrap();
        assert!(header.trim_start().starts_with("8    7"), "{header}");
        assert!(header.ends_with(" 1"), "{header}");
    }

    /// Any square's number can be read off the board where it is not
    /// shown: its row's first number, plus the column number
    /// above it, less 1.
    #[test]
    fn column_numbers_head_every_board() {
        for g in [Geometry::EIGHT, Geometry::TEN] {
            for flip in [false, true] {
                for s in 0..g.squares() {
                    let cell = |q: Sq| Cell {
                        piece: if q == Sq(s) { "X" } else { "" },
                        ..Cell::default()
                    };
                    let d = grid(g, flip, cell, plain_corner);
                    assert!(d.lines().all(|l| l.chars().count() <= 72), "{d}");
                    let header = d.lines().next().unwrap();
                    let row = d.lines().find(|l| l.contains('X')).unwrap();
                    let x = row.find('X').unwrap();
                    let open = row[..x].rfind('|').unwrap();
                    let close = x + row[x..].find('|').unwrap();
                    let column: usize = header[open + 1..close.min(header.len())]
                        .trim()
                        .parse()
                        .unwrap();
                    let label = row.rsplit("  ").next().unwrap();
                    let first: usize = label.split('-').next().unwrap().parse().unwrap();
                    assert_eq!(first + column - 1, Sq(s).number() as usize, "{d}");
                }
            }
        }
    }
}
