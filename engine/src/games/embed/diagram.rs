//! The Embed board for a plain-text email.

use super::{Embed, G, Piece};
use crate::diagram::{Cell, grid, last_move_legend, plain_corner, status_line, wrap};
use crate::game::{Game, Side, View};

pub(super) fn diagram(pos: &Embed, view: &View) -> String {
    let rules = Embed::INFO;
    let marked = view.last.as_ref().map(|n| n.squares()).unwrap_or_default();
    let board = grid(
        G,
        view.seat == Some(Side::A),
        |s| Cell {
            piece: match pos.piece(s) {
                Some(Piece::Drone(Side::A)) => "B".into(),
                Some(Piece::Drone(Side::B)) => "R".into(),
                Some(Piece::Boss(Side::A)) => "*B*".into(),
                Some(Piece::Boss(Side::B)) => "*R*".into(),
                None => String::new(),
            },
            fill: None,
            marked: marked.contains(&s),
        },
        plain_corner,
    );
    let mut out = status_line(pos, view);
    let boss_line = |side: Side| {
        let (held, around) = pos.embedding(side);
        let name = rules.side_name(side);
        let mut capital = name[..1].to_uppercase();
        capital.push_str(&name[1..]);
        format!(
            "{capital}'s boss on {} (wins on {}); {} holds {held} of its {around} neighbours.",
            pos.boss(side),
            if side == Side::A { "57-64" } else { "1-8" },
            rules.side_name(side.other())
        )
    };
    out.push_str(&wrap(
        &format!("{}\n{}", boss_line(Side::A), boss_line(Side::B)),
        72,
    ));
    out.push('\n');
    out.push_str(&board);
    out.push_str(&wrap(
        &format!(
            "\nB, R = black and red drones; *B*, *R* = black's and red's boss. {}{} A side wins when its boss enters the enemy's home row, or when its pieces hold every square around the enemy boss.",
            crate::diagram::NUMBERS,
            last_move_legend(view)
        ),
        72,
    ));
    out
}
