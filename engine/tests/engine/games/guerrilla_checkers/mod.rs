//! Guerrilla Checkers rulings
//! (engine/src/games/guerrilla/guerrilla-checkers.md), each pinned by a
//! position written as a diagram or a move list from the start, and a naive
//! move generator written straight from the rule text (its own position type,
//! coordinates and play), compared with the engine on random games and by
//! perft.
//!
//! Diagrams for [`Guerrilla::from_diagram`] alternate a row of 8 squares
//! (`.` empty, `C` COIN piece) with the row of 7 interior points below it
//! (`+` empty, `O` stone). The k-th point (from 0) below the squares
//! `n..n+7` is `n+k / n+k+9`: below `25 .. 32`, the third point is 27/36.

use crate::support::{moves, play, refuse, sq};
use pbem_engine::game::{self, Game, Outcome, Side, View};
use pbem_engine::games::guerrilla::Guerrilla;
use pbem_engine::geom::{Geometry, Point, Sq};
use pbem_engine::notation::Notation;
use pbem_engine::play;
use std::collections::{BTreeSet, HashMap};

mod naive;

const G: Geometry = Geometry::EIGHT;

fn pos(rows: &str, turn: Side, supply: u8) -> Guerrilla {
    Guerrilla::from_diagram(rows, turn, supply).unwrap()
}

fn after(texts: &[&str]) -> Guerrilla {
    let mut p = Guerrilla::start(Side::A);
    for t in texts {
        play(&mut p, t);
    }
    p
}

fn point(name: &str) -> Point {
    match pbem_engine::notation::parse(name, G).unwrap() {
        Notation::Stones(v) => v[0],
        other => panic!("{other:?}"),
    }
}

// ---------------------------------------------------------------- setup

#[test]
fn setup_six_coin_pieces_an_empty_board_and_66_stones_guerrilla_first() {
    // engine/src/games/guerrilla/guerrilla-checkers.md, "Setup".
    for first in Side::BOTH {
        let p = Guerrilla::start(first);
        assert_eq!(p.turn(), Side::A, "the guerrilla moves first");
        assert_eq!(p.supply(), 66);
        assert!(p.stone_points().is_empty());
        assert_eq!(p.coin_squares(), [20, 27, 29, 36, 38, 45].map(sq).to_vec());
    }
}

#[test]
fn points_are_named_by_the_top_left_bottom_right_squares_and_28_35_is_accepted() {
    // engine/src/games/guerrilla/guerrilla-checkers.md, "Ruling: point names":
    // 28/35 is accepted, 27/36 is canonical.
    let p = Guerrilla::start(Side::A);
    let m = play::parse_move(&p, "28/35,29/36").unwrap();
    assert_eq!(game::canonical(&p, m), "27/36,28/37");
    let m = play::parse_move(&p, "36/27 , 37/28").unwrap();
    assert_eq!(game::canonical(&p, m), "27/36,28/37");
}

// ------------------------------------------------------- guerrilla turn

#[test]
fn the_first_turn_places_a_pair_anywhere_and_both_orders_are_listed() {
    // engine/src/games/guerrilla/guerrilla-checkers.md, "The guerrilla's turn":
    // first stone anywhere on the very first turn, the second next to it; both
    // orders of a pair are moves.
    let p = Guerrilla::start(Side::A);
    let m = moves(&p);
    // Every ordered pair of neighbouring points: 2 x 84 grid edges.
    assert_eq!(m.len(), 168);
    assert!(m.contains("1/10,2/11"), "a corner point is fine");
    assert!(m.contains("27/36,28/37") && m.contains("28/37,27/36"));
    assert!(m.contains("55/64,47/56"));
    assert!(!m.contains("27/36"), "a lone stone is no turn");
    let e = refuse(&p, "27/36");
    assert!(e.contains("a turn places two stones"), "{e}");
    assert!(e.contains("like 27/36,"), "{e}");
}

#[test]
fn neighbours_are_one_grid_step_across_or_up_down_never_diagonal() {
    // engine/src/games/guerrilla/guerrilla-checkers.md, "The board and the
    // points": adjacent = one grid step horizontally or vertically.
    let p = Guerrilla::start(Side::A);
    let m = moves(&p);
    assert!(m.contains("27/36,19/28") && m.contains("27/36,35/44"));
    assert!(m.contains("27/36,26/35") && m.contains("27/36,28/37"));
    assert!(!m.contains("27/36,36/45"));
    let e = refuse(&p, "27/36,36/45");
    assert!(e.contains("36/45 is not next to 27/36"), "{e}");
    assert!(e.contains("free: 19/28, 26/35, 28/37, 35/44"), "{e}");
    let e = refuse(&p, "27/36,29/38");
    assert!(e.contains("29/38 is not next to 27/36"), "{e}");
}

#[test]
fn later_the_first_stone_must_touch_a_stone_and_the_second_the_first() {
    // engine/src/games/guerrilla/guerrilla-checkers.md, "The guerrilla's turn":
    // the first stone next to a stone already on the board, the second next to
    // the first (not just to any stone).
    let p = after(&["27/36,28/37", "20-11"]);
    let m = moves(&p);
    // 29/38 touches 28/37, 30/39 touches only 29/38.
    assert!(m.contains("29/38,30/39"));
    assert!(!m.contains("30/39,29/38"), "the order matters here");
    let e = refuse(&p, "30/39,29/38");
    assert!(
        e.contains("the first stone must touch one of your stones"),
        "{e}"
    );
    assert!(e.contains("nearest: 28/37"), "{e}");
    assert!(
        e.contains("29/38"),
        "a free point next to a stone is offered: {e}"
    );
    // 19/28 touches 27/36 but not the first stone 29/38.
    assert!(!m.contains("29/38,19/28"));
    let e = refuse(&p, "29/38,19/28");
    assert!(e.contains("19/28 is not next to 29/38"), "{e}");
    // Stones and the pieces they sit between.
    let e = refuse(&p, "27/36,26/35");
    assert!(e.contains("27/36 is taken"), "{e}");
    let e = refuse(&p, "26/35,27/36");
    assert!(e.contains("27/36 is taken"), "{e}");
    let e = refuse(&p, "26/35,26/35");
    assert!(e.contains("named twice"), "{e}");
    let e = refuse(&p, "26/35,18/27,19/28");
    assert!(e.contains("not a move"), "{e}");
    // The first stones: every free neighbour of the two stones.
    let firsts: BTreeSet<String> = m
        .iter()
        .map(|t| t.split(',').next().unwrap().to_string())
        .collect();
    let expected: BTreeSet<String> = ["19/28", "20/29", "26/35", "29/38", "35/44", "36/45"]
        .map(String::from)
        .into();
    assert_eq!(firsts, expected);
    let e = refuse(&p, "27-36");
    assert!(e.contains("guerrilla's turn"), "{e}");
}

#[test]
fn after_each_stone_every_surrounded_coin_piece_is_removed_edge_points_count() {
    // engine/src/games/guerrilla/guerrilla-checkers.md, "The guerrilla's turn":
    // a COIN piece whose four corners are each a stone or an outer-edge point
    // is removed. 24 lies on the right edge: two stones (15/24, 23/32) surround
    // it.
    let mut p = pos(
        ". . . . . . . .
          + + + + + + +
         . . . . . . . .
          + + + + + + +
         . . . . . . . C
          + + + + + O +
         . . C . . . . .
          + + + + + + +
         . . . . . . . .
          + + + + + + +
         . . . . . . . .
          + + + + + + +
         . . . . . . . .
          + + + + + + +
         . . . . . . . .",
        Side::A,
        40,
    );
    play(&mut p, "23/32,15/24");
    assert!(
        !p.coin(sq(24)),
        "24 is surrounded by two stones and the edge"
    );
    assert!(p.coin(sq(27)));
    assert_eq!(p.supply(), 38);
    assert_eq!(game::outcome(&p), None);
    // A piece in a corner square needs a single stone.
    let mut q = pos(
        ". . . . . . . C
          + + + + + O +
         . . . . . . . .
          + + + + + + +
         . . . . . . . .
          + + + + + + +
         . . C . . . . .
          + + + + + + +
         . . . . . . . .
          + + + + + + +
         . . . . . . . .
          + + + + + + +
         . . . . . . . .
          + + + + + + +
         . . . . . . . .",
        Side::A,
        40,
    );
    play(&mut q, "7/16,15/24");
    assert!(!q.coin(sq(8)));
    // An inner square needs all four corners.
    let mut r = after(&["27/36,28/37", "20-11", "19/28,11/20"]);
    assert!(
        r.coin(sq(27)),
        "27 still has an empty corner (18/27, 26/35)"
    );
    play(&mut r, "11-2");
    play(&mut r, "26/35,18/27");
    assert!(!r.coin(sq(27)), "27's four corners hold stones");
    assert!(r.coin(sq(2)));
}

/// One COIN piece left, on the corner square 8; its only interior corner
/// is 7/16.
const LAST_PIECE: &str = ". . . . . . . C
      + + + + + O +
     . . . . . . . .
      + + + + + O +
     . . . . . . . .
      + + + + + + +
     . . . . . . . .
      + + + + + + +
     . . . . . . . .
      + + + + + + +
     . . . . . . . .
      + + + + + + +
     . . . . . . . .
      + + + + + + +
     . . . . . . . .";

#[test]
fn a_first_stone_that_removes_the_last_coin_piece_wins_alone() {
    // engine/src/games/guerrilla/guerrilla-checkers.md, "Rulings": the
    // guerrilla wins at once and places no second stone; the legal move is the
    // lone stone, and no pair starts with it.
    let p = pos(LAST_PIECE, Side::A, 20);
    let m = moves(&p);
    assert!(m.contains("7/16"));
    assert!(!m.iter().any(|t| t.starts_with("7/16,")), "{m:?}");
    let e = refuse(&p, "7/16,15/24");
    assert!(
        e.contains("7/16 removes the last COIN piece and wins at once"),
        "{e}"
    );
    assert!(e.contains("write 7/16 alone"), "{e}");
    // The other order is a pair: 15/24 removes nothing, 7/16 then wins.
    assert!(m.contains("15/24,7/16"));
    let mut q = p.clone();
    play(&mut q, "7/16");
    assert_eq!(q.supply(), 19, "one stone placed");
    let end = game::outcome(&q).unwrap();
    assert_eq!(end.outcome, Outcome::Win(Side::A));
    assert!(end.reason.contains("no COIN piece"), "{}", end.reason);
    let mut r = p.clone();
    play(&mut r, "15/24,7/16");
    assert_eq!(game::outcome(&r).unwrap().outcome, Outcome::Win(Side::A));
    assert_eq!(r.supply(), 18);
}

#[test]
fn a_winning_first_stone_needs_no_free_point_beside_it() {
    // engine/src/games/guerrilla/guerrilla-checkers.md, "Rulings": a first
    // stone is legal if a second stone can follow "or it wins at once". 7/16's
    // neighbours 6/15 and 15/24 are both taken.
    let p = pos(
        ". . . . . . . C
          + + + + + O +
         . . . . . . . .
          + + + + + O O
         . . . . . . . .
          + + + + + + +
         . . . . . . . .
          + + + + + + +
         . . . . . . . .
          + + + + + + +
         . . . . . . . .
          + + + + + + +
         . . . . . . . .
          + + + + + + +
         . . . . . . . .",
        Side::A,
        20,
    );
    assert!(moves(&p).contains("7/16"));
}

#[test]
fn a_first_stone_without_a_free_point_beside_it_is_no_move() {
    // engine/src/games/guerrilla/guerrilla-checkers.md, "Rulings": a first
    // stone is legal only if a legal second stone exists after it. 1/10 touches
    // 2/11 and 9/18, both taken.
    let p = pos(
        ". . . . . . . .
          + O + + + + +
         . . . . . . . .
          O + + + + + +
         . . . C . . . .
          + + + + + + +
         . . C . C . . .
          + + + + + + +
         . . . C . C . .
          + + + + + + +
         . . . . C . . .
          + + + + + + +
         . . . . . . . .
          + + + + + + +
         . . . . . . . .",
        Side::A,
        60,
    );
    let m = moves(&p);
    assert!(!m.iter().any(|t| t.starts_with("1/10")), "{m:?}");
    assert!(m.contains("10/19,11/20"));
    let e = refuse(&p, "1/10,2/11");
    assert!(
        e.contains("1/10 has no free point next to it for the second stone"),
        "{e}"
    );
}

#[test]
fn a_guerrilla_with_no_legal_placement_loses() {
    // docs/src/rules/common.md, "Common ground": no legal move loses. Stones on
    // every point with an odd row + column, the others empty: each empty
    // point's neighbours are all stones, so no first stone has a second, and
    // every COIN piece keeps two empty corners.
    let p = pos(
        ". . . . . . . .
          + O + O + O +
         . . . . . . . .
          O + O + O + O
         . . . C . . . .
          + O + O + O +
         . . C . C . . .
          O + O + O + O
         . . . C . C . .
          + O + O + O +
         . . . . C . . .
          O + O + O + O
         . . . . . . . .
          + O + O + O +
         . . . . . . . .",
        Side::A,
        20,
    );
    assert!(moves(&p).is_empty());
    let end = game::outcome(&p).unwrap();
    assert_eq!(end.outcome, Outcome::Win(Side::B));
    assert!(
        end.reason.contains("guerrilla has no legal move"),
        "{}",
        end.reason
    );
}

#[test]
fn a_guerrilla_with_an_empty_supply_at_the_start_of_its_turn_loses() {
    // engine/src/games/guerrilla/guerrilla-checkers.md, "Rulings": an empty
    // supply at the start of the turn loses, not the turn that empties it: COIN
    // still moves first.
    let p = pos(
        ". . . . . . . .
          + + + + + + +
         . . . . . . . .
          + + + + + + +
         . . . C . . . .
          + + + + + + +
         . . C . C . . .
          + + O O + + +
         . . . C . C . .
          + + + + + + +
         . . . . C . . .
          + + + + + + +
         . . . . . . . .
          + + + + + + +
         . . . . . . . .",
        Side::A,
        2,
    );
    assert!(!moves(&p).is_empty());
    let mut q = p.clone();
    play(&mut q, "29/38,30/39");
    assert_eq!(q.supply(), 0);
    assert_eq!(game::outcome(&q), None, "COIN moves after the last stones");
    play(&mut q, "38-47");
    let end = game::outcome(&q).unwrap();
    assert_eq!(end.outcome, Outcome::Win(Side::B));
    assert!(end.reason.contains("supply"), "{}", end.reason);
    assert!(moves(&q).is_empty());
}

// ------------------------------------------------------------ COIN turn

/// COIN on 27 with stones on 27/36, 28/37 and 36/45: the capture over
/// 27/36 goes on to 29 or to 45.
const BRANCH: &str = ". . . . . . . .
      + + + + + + +
     . . . . . . . .
      + + + + + + +
     . . . . . . . .
      + + + + + + +
     . . C . . . . .
      + + O O + + +
     . . . . . . . .
      + + + O + + +
     . . . . . . . .
      + + + + + + +
     . . . . . . . .
      + + + + + + +
     . . . . . . C .";

#[test]
fn coin_steps_one_square_diagonally_onto_an_empty_square() {
    // engine/src/games/guerrilla/guerrilla-checkers.md, "COIN's turn".
    let p = after(&["1/10,2/11"]);
    let m = moves(&p);
    let steps: BTreeSet<String> = [
        "20-11", "20-13", "27-18", "27-34", "29-22", "36-43", "38-31", "38-47", "45-52", "45-54",
    ]
    .map(String::from)
    .into();
    assert_eq!(m, steps);
    let e = refuse(&p, "20-29");
    assert!(e.contains("29 is occupied"), "{e}");
    let e = refuse(&p, "20-28");
    assert!(
        e.contains("a COIN piece steps one square diagonally"),
        "{e}"
    );
    let e = refuse(&p, "20-2");
    assert!(e.contains("not one diagonal step"), "{e}");
    let e = refuse(&p, "21-30");
    assert!(
        e.contains("21 holds no COIN piece (COIN pieces: 20, 27, 29, 36, 38, 45)"),
        "{e}"
    );
    let e = refuse(&p, "27/36,28/37");
    assert!(e.contains("it is COIN's turn"), "{e}");
    let e = refuse(&p, "20-off");
    assert!(e.contains("never leave the board"), "{e}");
}

#[test]
fn a_capture_goes_on_while_it_can_along_any_path_and_only_finished_chains_are_moves() {
    // engine/src/games/guerrilla/guerrilla-checkers.md, "COIN's turn": once a
    // piece has captured it must go on capturing while it can (any path); only
    // finished chains are moves.
    let p = pos(BRANCH, Side::B, 40);
    let m = moves(&p);
    assert!(m.contains("27x36x29") && m.contains("27x36x45"), "{m:?}");
    assert!(!m.contains("27x36") && !m.contains("27-36"));
    let e = refuse(&p, "27x36");
    assert!(
        e.contains("the capture must go on: 27x36x29 or 27x36x45"),
        "{e}"
    );
    let e = refuse(&p, "27-36");
    assert!(e.contains("crosses the stone on 27/36"), "{e}");
    assert!(
        e.contains("the capture must go on: 27x36x29 or 27x36x45"),
        "{e}"
    );
    let mut q = p.clone();
    play(&mut q, "27x36x45");
    assert!(q.coin(sq(45)) && !q.coin(sq(27)) && !q.coin(sq(36)));
    assert_eq!(
        q.stone_points(),
        vec![point("28/37")],
        "the crossed stones are removed"
    );
    // A chain written with `-` is accepted (one match).
    let mut r = p.clone();
    play(&mut r, "27-36-29");
    assert_eq!(r.stone_points(), vec![point("36/45")]);
}

#[test]
fn starting_to_capture_is_optional_and_a_quiet_step_never_crosses_a_stone() {
    // engine/src/games/guerrilla/guerrilla-checkers.md, "COIN's turn":
    // "Starting to capture is optional".
    let p = pos(BRANCH, Side::B, 40);
    let m = moves(&p);
    for quiet in ["27-18", "27-20", "27-34", "63-54", "63-56"] {
        assert!(m.contains(quiet), "{quiet}: {m:?}");
    }
    assert_eq!(m.len(), 7);
}

#[test]
fn a_chain_cannot_land_on_a_coin_piece_and_ends_there() {
    // BRANCH with a second COIN piece on 45.
    let p = pos(
        ". . . . . . . .
          + + + + + + +
         . . . . . . . .
          + + + + + + +
         . . . . . . . .
          + + + + + + +
         . . C . . . . .
          + + O O + + +
         . . . . . . . .
          + + + O + + +
         . . . . C . . .
          + + + + + + +
         . . . . . . . .
          + + + + + + +
         . . . . . . C .",
        Side::B,
        40,
    );
    assert!(p.coin(sq(45)));
    let m = moves(&p);
    assert!(m.contains("27x36x29") && !m.contains("27x36x45"), "{m:?}");
    let e = refuse(&p, "27x36x45");
    assert!(e.contains("45 is occupied"), "{e}");
    // 45 captures over 36/45 and goes on over 28/37; 27 is occupied.
    assert!(m.contains("45x36x29") && !m.contains("45x36x27"), "{m:?}");
}

#[test]
fn a_chain_may_revisit_squares_and_return_to_its_empty_start_square() {
    // engine/src/games/guerrilla/guerrilla-checkers.md, "COIN's turn": squares
    // may be revisited; the start square is empty once the piece has left it.
    // Stones on the four corners of 28.
    let p = pos(
        ". . . . . . . .
          + + + + + + +
         . . . . . . . .
          + + + + + + +
         . . . . . . . .
          + + O O + + +
         . . C . . . . .
          + + O O + + +
         . . . . . . . .
          + + + + + + +
         . . . . . . . .
          + + + + + + +
         . . . . . . . .
          + + + + + + +
         . . . . . . C .",
        Side::B,
        40,
    );
    let m = moves(&p);
    assert!(m.contains("27x36x29x20x27"), "{m:?}");
    assert!(m.contains("27x20x29x36x27"), "{m:?}");
    let mut q = p.clone();
    play(&mut q, "27x36x29x20x27");
    assert!(q.coin(sq(27)));
    assert!(q.stone_points().is_empty());
    assert_eq!(game::outcome(&q).unwrap().outcome, Outcome::Win(Side::B));
    let e = refuse(&p, "27x36x29x20");
    assert!(e.contains("the capture must go on: 27x36x29x20x27"), "{e}");
    let e = refuse(&p, "27x36x29x36");
    assert!(
        e.contains("whose stone this chain has already captured"),
        "{e}"
    );
    let e = refuse(&p, "27-18-9");
    assert!(e.contains("quiet step and ends the move"), "{e}");
}

// ------------------------------------------------------------------ win

#[test]
fn coin_wins_by_capturing_every_stone() {
    // engine/src/games/guerrilla/guerrilla-checkers.md, "Winning": no guerrilla
    // stone left after a COIN move.
    let mut p = after(&["34/43,26/35"]);
    play(&mut p, "27x34x43");
    let end = game::outcome(&p).unwrap();
    assert_eq!(end.outcome, Outcome::Win(Side::B));
    assert!(end.reason.contains("no guerrilla stone"), "{}", end.reason);
    assert!(moves(&p).is_empty());
    assert!(matches!(
        play::parse_move(&p, "1/10,2/11").unwrap_err().error,
        game::MoveError::GameOver(_)
    ));
}

#[test]
fn the_start_with_no_stones_is_not_a_coin_win() {
    assert_eq!(game::outcome(&Guerrilla::start(Side::A)), None);
}

// ------------------------------------------------------------- diagram

#[test]
fn the_diagram_draws_stones_on_the_crossings_and_tells_the_supply() {
    let mut p = after(&["27/36,28/37", "20-11"]);
    play(&mut p, "29/38,30/39");
    let d = p.diagram(&View {
        last: Some(pbem_engine::notation::parse("29/38,30/39", G).unwrap()),
        seat: None,
        ply: 3,
        ..View::default()
    });
    println!("{d}");
    assert!(d.contains("move 4, coin to play"), "{d}");
    assert!(d.contains("62 stones in supply, 4 on the board"), "{d}");
    // The line below squares 25-32 crosses 27/36 and 28/37 (O), then the
    // new stones 29/38 and 30/39 (@).
    assert!(
        d.contains("+----+----+----O----O----@----@----+----+"),
        "{d}"
    );
    assert!(d.contains("|  C |"), "{d}");
    assert!(d.contains("upper-left and lower-right"), "{d}");
    assert!(d.contains("27/36."), "{d}");
    assert!(d.contains("@ marks the stones just placed"), "{d}");
    assert!(d.lines().all(|l| l.chars().count() <= 72));
    // A capture marks its squares and the captured points.
    let mut q = pos(BRANCH, Side::B, 40);
    play(&mut q, "27x36x45");
    let d = q.diagram(&View {
        last: Some(pbem_engine::notation::parse("27x36x45", G).unwrap()),
        seat: Some(Side::B),
        ply: 10,
        ..View::default()
    });
    println!("{d}");
    assert!(
        d.contains("[27]") && d.contains("[36]") && d.contains("[ C]"),
        "{d}"
    );
    assert!(
        d.contains("[ ] marks the last move, x the stones it captured."),
        "{d}"
    );
    assert!(
        d.contains("+----+----+----x----O----+----+----+----+"),
        "{d}"
    );
    assert!(
        d.contains("+----+----+----+----x----+----+----+----+"),
        "{d}"
    );
}

// ------------------------------------------------- naive reference rules
