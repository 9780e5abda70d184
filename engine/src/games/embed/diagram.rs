//! The Embed board for a plain-text email.

use super::{Embed, G, Piece};
use crate::board::Words;
use crate::board::{self, Board, Colour, Kind, Shade, Square};
use crate::diagram::{last_move_legend, status_line, wrap};
use crate::game::{Game, Side, View};

/// The legend's note on the rules.
const NOTE: &str = "A side wins when its boss enters the enemy's home row, or when its pieces hold every square around the enemy boss.";

/// The board as data: drones and bosses (crowned, labelled with a star).
pub(super) fn board(pos: &Embed, view: &View) -> Board {
    let marked = view.last.as_ref().map(|n| n.squares()).unwrap_or_default();
    let mut board = Board::new(G, view.seat == Some(Side::A), |s| Square {
        piece: pos.piece(s).map(|p| {
            let (side, boss) = match p {
                Piece::Drone(side) => (side, false),
                Piece::Boss(side) => (side, true),
            };
            let (colour, letter, boss_letter, drone_name, boss_name) = match side {
                Side::A => (Colour::Black, "B", "*B*", "black drone", "black boss"),
                Side::B => (Colour::Red, "R", "*R*", "red drone", "red boss"),
            };
            board::Piece {
                side,
                colour,
                kind: if boss { Kind::Crowned } else { Kind::Single },
                label: if boss { "\u{2605}" } else { "" }.into(),
                ascii: if boss { boss_letter } else { letter }.into(),
                name: if boss { boss_name } else { drone_name }.into(),
            }
        }),
        shade: Shade::of(G, s),
        marked: marked.contains(&s),
    });
    board.notes = vec![NOTE.into()];
    board
}

/// The caption and where the bosses stand above the board, the legend
/// below.
pub(super) fn words(pos: &Embed, view: &View) -> Words {
    let rules = Embed::INFO;
    let mut above = status_line(pos, view);
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
    above.push_str(&wrap(
        &format!("{}\n{}", boss_line(Side::A), boss_line(Side::B)),
        72,
    ));
    above.push('\n');
    let below = wrap(
        &format!(
            "\nB, R = black and red drones; *B*, *R* = black's and red's boss. {}{} {NOTE}",
            crate::diagram::NUMBERS,
            last_move_legend(view)
        ),
        72,
    );
    Words { above, below }
}
