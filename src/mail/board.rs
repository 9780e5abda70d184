//! A board in a letter's context: the adjudicator puts a
//! [`board`] value where it put the ASCII diagram; templates print it as
//! that diagram (`{{ board }}`, the plain-text part, unchanged), and the
//! compose step ([`crate::mail::templates`]) draws the HTML part with the
//! board's HTML table in its place ([`pbem_engine::board::html_table`]),
//! the diagram's caption above it and, below it, a legend of the table
//! made from the same board data ([`pbem_engine::board::html_legend`]):
//! the ASCII legend speaks of ASCII marks the table does not have.
//!
//! The value carries the board as data, decided by the game
//! ([`pbem_engine::game::Game::board`]); no code reads the board back from
//! the words. The game's diagram comes in its parts
//! ([`pbem_engine::diagram::Diagram`]): the board is built and drawn once,
//! and the caption above the drawing is known without looking for it.

use crate::game::{Game, PerSide, Side, View};
use minijinja::Value;
use minijinja::value::Object;
use pbem_engine::board::{html_legend, html_style, html_table};
use pbem_engine::diagram::Diagram;
use std::fmt;
use std::sync::Arc;

/// The line that stands for the board while the HTML part is worded
/// (no command, no wrap, no tidy pass changes it).
pub const MARK: &str = "%%pbem-board-table%%";

/// A board as a template value: printed, the ASCII diagram.
#[derive(Debug)]
pub struct BoardValue {
    /// The game's ASCII diagram: caption, board, legend.
    pub text: String,
    /// The diagram's caption with [`MARK`] on a line of its own after
    /// it, in place of the ASCII board and its legend.
    pub marked: String,
    /// The board's HTML table.
    pub table: String,
    /// The table's legend, HTML.
    pub legend: String,
    /// The rules for the HTML part's `<style>` block.
    pub style: String,
}

impl Object for BoardValue {
    fn repr(self: &Arc<Self>) -> minijinja::value::ObjectRepr {
        minijinja::value::ObjectRepr::Plain
    }
    fn is_true(self: &Arc<Self>) -> bool {
        !self.text.is_empty()
    }
    fn render(self: &Arc<Self>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// The board of `pos` seen as `view` says, for a letter's context.
pub fn board<G: Game>(pos: &G, view: &View) -> Value {
    Value::from_object(of(&Diagram::of(pos, view)))
}

/// The board of `pos` from each side's seat (`view` of each side): one
/// value for both when the two diagrams are the same (the games whose
/// board is never turned), so that it is drawn once.
pub fn seated<G: Game>(pos: &G, view: impl Fn(Side) -> View) -> PerSide<Value> {
    let a = Diagram::of(pos, &view(Side::A));
    let b_view = view(Side::B);
    let (b_board, b_words) = (pos.board(&b_view), pos.diagram_words(&b_view));
    let a_value = Value::from_object(of(&a));
    if b_board == a.board && b_words == a.words {
        return PerSide::new(a_value.clone(), a_value);
    }
    let b_value = Value::from_object(of(&Diagram::new(b_board, b_words)));
    PerSide::new(a_value, b_value)
}

/// The value for the game's diagram `d`.
pub fn of(d: &Diagram) -> BoardValue {
    // The table's own legend replaces the legend of the ASCII marks, so
    // only the words above the drawing stay.
    BoardValue {
        text: d.text(),
        marked: format!("{}{MARK}\n", d.above()),
        table: html_table(&d.board),
        legend: html_legend(&d.board),
        style: html_style(&d.board),
    }
}

/// The board value in `v`, if it is one.
pub fn value_of(v: &Value) -> Option<&BoardValue> {
    v.downcast_object_ref::<BoardValue>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use pbem_engine::games::boom_and_zoom::BoomAndZoom;
    use pbem_engine::side::Side;

    #[test]
    fn prints_as_the_diagram_and_marks_the_board() {
        let pos = BoomAndZoom::start(Side::A);
        let view = View::default();
        let v = board(&pos, &view);
        assert_eq!(v.to_string(), pos.diagram(&view));
        assert!(v.is_true());
        let b = value_of(&v).unwrap();
        let marked = &b.marked;
        assert!(marked.lines().any(|l| l == MARK), "{marked}");
        assert!(!marked.contains("|  1 |") && !marked.contains("+----"));
        assert!(marked.starts_with("Boom & Zoom: move 1"), "{marked}");
        assert!(b.table.starts_with("<table"));
    }

    /// Each seat gets the board as drawn for it alone; a board that is
    /// never turned is drawn once for both seats.
    #[test]
    fn both_seats_share_a_board_that_is_never_turned() {
        use pbem_engine::games::mad_rooks::MadRooks;
        let seat = |side| View {
            seat: Some(side),
            ..View::default()
        };
        let turned = seated(&BoomAndZoom::start(Side::A), seat);
        let never = seated(&MadRooks::start(Side::A), seat);
        for side in Side::BOTH {
            let alone = board(&BoomAndZoom::start(Side::A), &seat(side));
            assert_eq!(turned[side].to_string(), alone.to_string());
            let alone = board(&MadRooks::start(Side::A), &seat(side));
            assert_eq!(never[side].to_string(), alone.to_string());
        }
        assert_ne!(turned[Side::A].to_string(), turned[Side::B].to_string());
        let (a, b) = (value_of(&never[Side::A]), value_of(&never[Side::B]));
        assert!(std::ptr::eq(a.unwrap(), b.unwrap()));
    }

    /// The table's words, quoted in a player's reply and read back as
    /// text, are no command (pbem's own lines are inert).
    #[test]
    fn the_table_reads_as_no_command() {
        for_each_board(|b| {
            let text = super::super::text::html_to_text(&b.table);
            for line in text.lines() {
                assert!(
                    !crate::mail::command::reads_as_command(line),
                    "{line:?} in {text}"
                );
            }
        });
    }

    /// The HTML part's caption is the plain diagram's text above its
    /// ASCII board, in every game: the mark stands where the drawing
    /// starts (its line of column numbers), and nothing of the drawing
    /// is left above it.
    #[test]
    fn the_mark_stands_where_the_ascii_board_starts() {
        for_each_board(|b| {
            let above = b.marked.strip_suffix(&format!("{MARK}\n")).unwrap();
            let rest = b.text.strip_prefix(above).unwrap();
            let header = rest.lines().next().unwrap();
            let columns = header.split_whitespace();
            assert!(
                columns.map(str::parse::<u8>).all(|c| c.is_ok()),
                "{}",
                b.text
            );
            assert!(!above.contains("+--"), "{above}");
        });
    }

    fn for_each_board(check: impl Fn(&BoardValue)) {
        for rules in pbem_engine::rules::Rules::ALL {
            crate::with_game!(rules, G => {
                let (pos, moves) = pbem_engine::game::random_game::<G>(Side::A, 7, 12);
                let last = moves.last().map(|m| {
                    let mut before = G::start(Side::A);
                    for mv in &moves[..moves.len() - 1] {
                        before.play_unchecked(*mv);
                    }
                    before.notation(*m)
                });
                let view = View { last, seat: Some(Side::A), ply: moves.len(), ended: None };
                let v = board(&pos, &view);
                check(value_of(&v).unwrap());
            });
        }
    }
}
