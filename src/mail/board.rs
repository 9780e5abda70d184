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
//! the words.

use crate::game::{Game, View};
use minijinja::Value;
use minijinja::value::Object;
use pbem_engine::board::{Board, html_legend, html_style, html_table};
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
    /// it, in place of the ASCII board and its legend, when the board is
    /// found in the diagram.
    pub marked: Option<String>,
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
    let text = pos.diagram(view);
    let board = pos.board(view);
    Value::from_object(of(text, &board))
}

/// The value for the diagram `text` that shows `board`.
pub fn of(text: String, board: &Board) -> BoardValue {
    let ascii = crate::diagram::ascii(board);
    // The game's diagram is caption, then this very drawing (the same
    // function drew it from the same data), then the legend of its ASCII
    // marks, which the table's own legend replaces.
    let marked = text
        .split_once(&ascii)
        .map(|(head, _)| format!("{head}{MARK}\n"));
    BoardValue {
        table: html_table(board),
        legend: html_legend(board),
        style: html_style(board),
        marked,
        text,
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
        let marked = b.marked.as_deref().unwrap();
        assert!(marked.lines().any(|l| l == MARK), "{marked}");
        assert!(!marked.contains("|  1 |") && !marked.contains("+----"));
        assert!(marked.starts_with("Boom & Zoom: move 1"), "{marked}");
        assert!(b.table.starts_with("<table"));
    }

    /// The table's words, quoted in a player's reply and read back as
    /// text, are no command (pbem's own lines are inert).
    #[test]
    fn the_table_reads_as_no_command() {
        for_each_board(|table| {
            let text = super::super::text::html_to_text(table);
            for line in text.lines() {
                assert!(
                    !crate::mail::command::reads_as_command(line),
                    "{line:?} in {text}"
                );
            }
        });
    }

    fn for_each_board(check: impl Fn(&str)) {
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
                check(&value_of(&v).unwrap().table);
            });
        }
    }
}
