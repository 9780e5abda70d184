//! Embed rulings (engine/src/games/embed/embed.md), each pinned by a position written
//! as a diagram or a move list from the start, and a naive legal move list
//! and end check written straight from the rule text, compared with the
//! engine on random games and by perft.

use crate::support::{moves, moves_from as from, play, refuse, sq};
use pbem_engine::game::{self, Game, Outcome, Side, View};
use pbem_engine::games::embed::{Embed, Piece};
use pbem_engine::geom::Geometry;
use pbem_engine::notation;
use pbem_engine::play;
use std::collections::BTreeSet;

mod naive;

const G: Geometry = Geometry::EIGHT;

fn pos(rows: &str, turn: Side) -> Embed {
    Embed::from_diagram(rows, turn).unwrap()
}

fn winner(p: &Embed) -> Option<Side> {
    game::outcome(p).map(|e| match e.outcome {
        Outcome::Win(s) => s,
        Outcome::Draw => panic!("Embed has no draws"),
    })
}

#[test]
fn setup_follows_the_ruling() {
    // engine/src/games/embed/embed.md, "Ruling: the setup": black drones on
    // 1..24 except 20, red drones on 41..64 except 45; red's boss on 20,
    // black's boss on 45.
    let p = Embed::start(Side::A);
    for n in 1..=64u8 {
        let want = match n {
            20 => Some(Piece::Boss(Side::B)),
            45 => Some(Piece::Boss(Side::A)),
            1..=24 => Some(Piece::Drone(Side::A)),
            41..=64 => Some(Piece::Drone(Side::B)),
            _ => None,
        };
        assert_eq!(p.piece(sq(n)), want, "square {n}");
    }
    assert_eq!((p.boss(Side::A), p.boss(Side::B)), (sq(45), sq(20)));
    assert!(game::outcome(&p).is_none());
}

#[test]
fn either_side_may_move_first() {
    // engine/src/games/embed/embed.md: first side named at game creation.
    assert_eq!(Embed::start(Side::A).turn(), Side::A);
    assert_eq!(Embed::start(Side::B).turn(), Side::B);
    let red = moves(&Embed::start(Side::B));
    assert!(red.contains("20-28") && red.contains("41x17"), "{red:?}");
    assert_eq!(red.len(), 54, "the setup is symmetric");
}

#[test]
fn pieces_move_like_a_queen_through_empty_squares() {
    // engine/src/games/embed/embed.md, "Moving": like a chess queen, any
    // distance through empty squares; No Skipping.
    let p = pos(
        ". . . . . . . .
         . . . . . . . *R*
         . . . . . . . .
         . . . B . . . .
         . . . . . . . .
         . . . . . B . .
         . . . . . . . .
         *B* . . . . . . .",
        Side::A,
    );
    let m = from(&p, 28);
    assert_eq!(
        m.len(),
        24,
        "27 queen squares less 46 (a friend), 55 and 64: {m:?}"
    );
    assert!(m.contains("28-4") && m.contains("28-25") && m.contains("28-60"));
    assert!(m.contains("28-37") && !m.contains("28-55"), "{m:?}");
    let e = refuse(&p, "28-55");
    assert!(
        e.contains("blocked at 46 (a black drone): no piece moves over another"),
        "{e}"
    );
    let e = refuse(&p, "28-45");
    assert!(e.contains("not in a straight line"), "{e}");
    // The boss moves the same way: 57 up the column, along the row and the
    // long diagonal, 21 squares.
    assert_eq!(from(&p, 57).len(), 21);
}

#[test]
fn a_boss_only_enters_empty_squares() {
    // engine/src/games/embed/embed.md, "Moving": a boss captures nothing: no
    // drone of either side, never the other boss.
    let p = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . R . . . .
         . . . *B* *R* . . .
         . . . B . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::A,
    );
    let m = from(&p, 28);
    assert!(!m.iter().any(|m| m.contains('x')), "{m:?}");
    assert!(!m.contains("28-20") && !m.contains("28-29") && !m.contains("28-36"));
    assert!(m.contains("28-27") && m.contains("28-19"), "{m:?}");
    let e = refuse(&p, "28x20");
    assert!(
        e.contains("a boss only enters empty squares, and 20 holds a red drone"),
        "{e}"
    );
    let e = refuse(&p, "28-29");
    assert!(
        e.contains("a boss only enters empty squares, and 29 holds red's boss"),
        "{e}"
    );
    let e = refuse(&p, "28-36");
    assert!(e.contains("36 holds a black drone"), "{e}");
}

#[test]
fn a_drone_captures_enemy_drones_only_and_stops_there() {
    // engine/src/games/embed/embed.md, "Moving": a drone enters an empty square
    // or captures an enemy drone by moving onto it (the move ends there); no
    // drone enters a square holding a boss, nor its own drone.
    let p = pos(
        ". . . . . . . .
         . . . . . . . *R*
         . . . . . R . .
         . . . . . . . .
         . R . B . . . B
         . . . . . . . .
         . . . *B* . . . .
         . . . . . . . .",
        Side::A,
    );
    let m = from(&p, 36);
    assert!(m.contains("36x22"), "captures the red drone: {m:?}");
    assert!(!m.contains("36-22") && !m.contains("36-15") && !m.contains("36x15"));
    assert!(m.contains("36x34"), "{m:?}");
    assert!(
        !m.contains("36x33") && !m.contains("36-33"),
        "the move ends on the capture"
    );
    assert!(
        !m.iter().any(|m| m.ends_with("-40") || m.ends_with("x40")),
        "own drone"
    );
    assert!(
        !m.iter().any(|m| m.ends_with("-52") || m.ends_with("x52")),
        "own boss"
    );
    let mut q = p.clone();
    play(&mut q, "36x22");
    assert_eq!(q.piece(sq(22)), Some(Piece::Drone(Side::A)));
    assert_eq!(q.piece(sq(36)), None);
    let e = refuse(&p, "36x40");
    assert!(e.contains("40 holds your own drone"), "{e}");
    let e = refuse(&p, "36x52");
    assert!(
        e.contains("no drone enters a square holding a boss, and 52 holds black's boss"),
        "{e}"
    );
    // A drone next to the enemy boss may not enter its square.
    let r = pos(
        ". . . . . . . .
         B . . . . . . .
         *R* . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . *B* . . . .",
        Side::A,
    );
    assert!(
        !from(&r, 9)
            .iter()
            .any(|m| m.ends_with("x17") || m.ends_with("-17"))
    );
    let e = refuse(&r, "9x17");
    assert!(
        e.contains("no drone enters a square holding a boss, and 17 holds red's boss"),
        "{e}"
    );
}

#[test]
fn a_boss_wins_by_entering_the_enemy_home_row() {
    // engine/src/games/embed/embed.md, "Winning": black's boss onto 57..64,
    // red's onto 1..8.
    let rows = ". . . . . . . .
         . . . . . . . .
         . . . *B* . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . *R* . . .
         B . . . . . . .
         . . . . . . . R";
    let mut p = pos(rows, Side::A);
    play(&mut p, "20-4");
    assert_eq!(
        winner(&p),
        None,
        "black's boss on its own home row wins nothing"
    );
    let mut q = pos(rows, Side::A);
    play(&mut q, "49-57");
    assert_eq!(winner(&q), None, "a drone entering wins nothing");
    let mut b = pos(rows, Side::A);
    play(&mut b, "20-60");
    assert_eq!(winner(&b), Some(Side::A));
    let end = game::outcome(&b).unwrap();
    assert!(
        end.reason
            .contains("black's boss entered 60, on red's home row 57-64"),
        "{}",
        end.reason
    );
    assert_eq!(b.count_moves(), 0);
    let mut r = pos(rows, Side::B);
    play(&mut r, "45-61");
    assert_eq!(
        winner(&r),
        None,
        "red's boss on its own home row wins nothing"
    );
    let mut r = pos(rows, Side::B);
    play(&mut r, "45-5");
    assert_eq!(winner(&r), Some(Side::B));
    let end = game::outcome(&r).unwrap();
    assert!(
        end.reason
            .contains("red's boss entered 5, on black's home row 1-8"),
        "{}",
        end.reason
    );
}

/// The winner when the game ended by embedding, else `None`.
fn embedding_winner(p: &Embed) -> Option<Side> {
    let end = game::outcome(p)?;
    assert!(end.reason.contains("fully embedded"), "{}", end.reason);
    winner(p)
}

#[test]
fn embedding_counts_the_board_squares_around_the_boss() {
    // engine/src/games/embed/embed.md, "Winning": 8 squares in the middle, 5 on any edge,
    // 3 in a corner (ruling: top and bottom edges and corners as the side
    // edges), all held by the opponent's pieces, drones and/or boss.
    // Black has just moved (red to play); red's boss is examined.
    let middle = pos(
        ". . . . . . . .
         B B B . . . . .
         B *R* B . . . . .
         B B *B* . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::B,
    );
    assert_eq!(middle.embedding(Side::B), (8, 8));
    assert_eq!(
        embedding_winner(&middle),
        Some(Side::A),
        "black's boss counts as an embedder"
    );
    // The rule book's edge example: a boss on 25 with 17, 18, 26, 34, 33.
    let side_edge = pos(
        ". . . . . . . .
         . . . . . . . .
         B B . . . . . .
         *R* B . . . . . .
         B B . . . . . .
         . . . . . . . .
         *B* . . . . . . .
         . . . . . . . .",
        Side::B,
    );
    assert_eq!(side_edge.embedding(Side::B), (5, 5));
    assert_eq!(embedding_winner(&side_edge), Some(Side::A));
    let top_edge = pos(
        ". . B *R* B . . .
         . . B B B . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         *B* . . . . . . .
         . . . . . . . .",
        Side::B,
    );
    assert_eq!(
        embedding_winner(&top_edge),
        Some(Side::A),
        "top edge: 5 squares"
    );
    let bottom_edge = pos(
        ". . . . . . . .
         . . . . . . . *R*
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . R R R .
         . . . . R *B* R .",
        Side::A,
    );
    assert_eq!(
        embedding_winner(&bottom_edge),
        Some(Side::B),
        "bottom edge: 5 squares"
    );
    let corner = pos(
        ". . . . . . B *R*
         . . . . . . B B
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         *B* . . . . . . .
         . . . . . . . .",
        Side::B,
    );
    assert_eq!(corner.embedding(Side::B), (3, 3));
    assert_eq!(
        embedding_winner(&corner),
        Some(Side::A),
        "corner: 3 squares"
    );
}

#[test]
fn embedding_is_broken_by_an_empty_square_or_the_bosss_own_piece() {
    // engine/src/games/embed/embed.md, "Winning": every square around the boss held by
    // the opponent. One empty square, or one of the boss's own pieces,
    // breaks it.
    let gap = pos(
        ". . . . . . B *R*
         . . . . . . . B
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         *B* . . . . . . .
         . . . . . . . .",
        Side::B,
    );
    assert_eq!(embedding_winner(&gap), None);
    let friend = pos(
        ". . . . . . B *R*
         . . . . . . R B
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         *B* . . . . . . .
         . . . . . . . .",
        Side::B,
    );
    assert_eq!(friend.embedding(Side::B), (2, 3));
    assert_eq!(embedding_winner(&friend), None);
}

#[test]
fn the_mover_wins_by_embedding_with_a_drone_or_the_boss() {
    // engine/src/games/embed/embed.md, "Ruling: the order of the checks",
    // second branch, by real moves: red's boss in the corner 64 (its own home
    // row) is embedded by 55, 56 and 63.
    let mut p = pos(
        "R . . . . . . .
         . . . . . . . .
         . . . . *B* . . .
         . . . . . . . .
         . . . . . . B .
         . . . . . . . B
         . . . . . . . .
         . . . . . . B *R*",
        Side::A,
    );
    assert_eq!(winner(&p), None);
    play(&mut p, "48-56");
    assert_eq!(winner(&p), None, "two of three");
    play(&mut p, "1-9");
    play(&mut p, "39-55");
    let end = game::outcome(&p).unwrap();
    assert_eq!(end.outcome, Outcome::Win(Side::A));
    assert!(
        end.reason
            .contains("red's boss on 64 is fully embedded by black pieces"),
        "{}",
        end.reason
    );
    // Black's boss completes the ring itself.
    let mut q = pos(
        "R . . . . . . .
         . . . . . . . .
         . . *B* . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . B
         . . . . . . B *R*",
        Side::A,
    );
    play(&mut q, "19-55");
    assert_eq!(q.embedding(Side::B), (3, 3));
    assert_eq!(winner(&q), Some(Side::A));
}

#[test]
fn entry_comes_first() {
    // engine/src/games/embed/embed.md, "Ruling: the order of the checks": the
    // mover wins by entry, checked first. Black's boss enters 63 next to red's
    // boss on 64 and embeds it too: the win is by entry.
    let mut q = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . *B* B B
         . . . . . . . *R*",
        Side::A,
    );
    assert_eq!(winner(&q), None);
    play(&mut q, "54-63");
    let end = game::outcome(&q).unwrap();
    assert_eq!(end.outcome, Outcome::Win(Side::A));
    assert_eq!(
        q.embedding(Side::B),
        (3, 3),
        "red's boss is embedded as well"
    );
    assert!(
        end.reason.contains("entered 63"),
        "entry is checked first: {}",
        end.reason
    );
    // Entry beats the mover's own embedding (a constructed position:
    // black has just moved its boss to 60, where red surrounds it).
    let r = pos(
        "*R* . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . R R R . . .
         . . R *B* R . . .",
        Side::B,
    );
    assert_eq!(r.embedding(Side::A), (5, 5));
    let end = game::outcome(&r).unwrap();
    assert_eq!(end.outcome, Outcome::Win(Side::A));
    assert!(end.reason.contains("entered 60"), "{}", end.reason);
}

#[test]
fn the_opponents_embedding_beats_the_movers_own() {
    // engine/src/games/embed/embed.md, "Ruling: the order of the checks",
    // branches two and three: both bosses embedded at once, and only the
    // mover's. After a legal move in a live game the mover's own boss is never
    // embedded (a boss arrives through an empty neighbour, and no other move
    // adds enemy pieces around it), so these are constructed positions judged
    // as if the side not to move had just moved.
    let both = |turn| {
        pos(
            "B B . . . . . .
             *R* B R R R . . .
             B B R *B* R . . .
             . . R R R . . .
             . . . . . . . .
             . . . . . . . .
             . . . . . . . .
             . . . . . . . .",
            turn,
        )
    };
    let black_moved = both(Side::B);
    assert_eq!(black_moved.embedding(Side::A), (8, 8));
    assert_eq!(black_moved.embedding(Side::B), (5, 5));
    let end = game::outcome(&black_moved).unwrap();
    assert_eq!(end.outcome, Outcome::Win(Side::A), "the mover wins");
    assert!(
        end.reason
            .contains("red's boss on 9 is fully embedded by black pieces"),
        "{}",
        end.reason
    );
    let red_moved = both(Side::A);
    let end = game::outcome(&red_moved).unwrap();
    assert_eq!(end.outcome, Outcome::Win(Side::B), "the mover wins");
    assert!(
        end.reason
            .contains("black's boss on 20 is fully embedded by red pieces"),
        "{}",
        end.reason
    );
    // Only the mover's boss embedded: the mover loses.
    let own = pos(
        ". B . . . . . .
         *R* B R R R . . .
         B B R *B* R . . .
         . . R R R . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::B,
    );
    assert_eq!(own.embedding(Side::B), (4, 5));
    let end = game::outcome(&own).unwrap();
    assert_eq!(end.outcome, Outcome::Win(Side::B), "the mover loses");
    assert!(
        end.reason
            .contains("black's own move left its boss on 20 fully embedded by red pieces"),
        "{}",
        end.reason
    );
    assert_eq!(own.count_moves(), 0);
    // A move that embeds both at once, played with `play_unchecked` from
    // such a constructed position (black to move, its boss already
    // surrounded): 25-17 completes the ring around red's boss; black wins.
    let mut before = pos(
        "B B . . . . . .
         *R* B R R R . . .
         . B R *B* R . . .
         B . R R R . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::A,
    );
    before.play_unchecked(pbem_engine::games::embed::Move::Step {
        from: sq(25),
        to: sq(17),
    });
    assert_eq!(before.embedding(Side::B), (5, 5));
    assert_eq!(winner(&before), Some(Side::A));
}

#[test]
fn a_boss_moving_into_a_pocket_keeps_an_empty_neighbour() {
    // Why the third branch never fires in play: the square the boss came
    // through is left empty, so the boss is not embedded; the opponent may
    // then fill it and win by the second branch.
    let mut p = pos(
        ". . . . . . . .
         . . . . . . . .
         . . R R R . . .
         . . R . R . . .
         . . R R . . R .
         . . . . . . . .
         . . . . . . *B* .
         *R* . . . . . . .",
        Side::A,
    );
    play(&mut p, "55-28");
    assert_eq!(p.embedding(Side::A), (7, 8));
    assert_eq!(winner(&p), None);
    play(&mut p, "39-37");
    assert_eq!(winner(&p), Some(Side::B));
}

#[test]
fn refusals_name_the_rule_and_the_facts() {
    let p = Embed::start(Side::A);
    let e = refuse(&p, "25-33");
    assert!(
        e.starts_with("25-33 is not a legal move for black: 25 holds no black piece (black's boss is on 45; black drones: 1, 2,"),
        "{e}"
    );
    let e = refuse(&p, "20-28");
    assert!(
        e.contains("20 holds red's boss, and it is black's turn"),
        "{e}"
    );
    let e = refuse(&p, "41-33");
    assert!(
        e.contains("41 holds a red drone, and it is black's turn"),
        "{e}"
    );
    let e = refuse(&p, "12-20");
    assert!(
        e.contains("no drone enters a square holding a boss, and 20 holds red's boss"),
        "{e}"
    );
    let e = refuse(&p, "45-46");
    assert!(
        e.contains("a boss only enters empty squares, and 46 holds a red drone"),
        "{e}"
    );
    assert_eq!(
        game::canonical(&p, play::parse_move(&p, "17-41").unwrap()),
        "17x41"
    );
    let e = refuse(&p, "17-49");
    assert!(e.contains("blocked at 41 (a red drone)"), "{e}");
    assert!(
        e.contains("legal moves from 17: 17-25, 17-26, 17-33, 17-35, 17x41, 17x44"),
        "{e}"
    );
    let e = refuse(&p, "17-off");
    assert!(e.contains("never leave the board"), "{e}");
    let e = refuse(&p, "17x41x49");
    assert!(e.contains("one move of one piece"), "{e}");
    let e = refuse(&p, "9-17");
    assert!(e.contains("17 holds your own drone"), "{e}");
    let n = notation::parse("27/36", G).unwrap();
    assert!(p.explain(&n).text.contains("square numbers"));
}

#[test]
fn diagrams_show_drones_bosses_and_embedding() {
    let mut p = Embed::start(Side::A);
    play(&mut p, "19-28");
    let d = p.diagram(&View {
        last: Some(notation::parse("19-28", G).unwrap()),
        seat: None,
        ply: 1,
        ..View::default()
    });
    println!("{d}");
    assert!(d.contains("Embed: move 2, red to play."), "{d}");
    assert!(
        d.contains("Red's boss on 20 (wins on 1-8); black holds 5 of its 8 neighbours."),
        "{d}"
    );
    assert!(d.contains("| *R* |") && d.contains("| *B* |"), "{d}");
    assert!(d.contains("[ 19]") && d.contains("[ B ]"), "{d}");
    assert!(d.lines().all(|l| l.chars().count() <= 72), "{d}");
    // Black starts at the top, so black's seat turns the board.
    let flipped = p.diagram(&View {
        last: None,
        seat: Some(Side::A),
        ply: 1,
        ..View::default()
    });
    println!("{flipped}");
    let first_row = flipped.lines().find(|l| l.starts_with('|')).unwrap();
    assert!(
        first_row.starts_with("|  R  |") && first_row.ends_with("57-64"),
        "{first_row}"
    );
}

// ---------------------------------------------------------------------
// The naive reference: straight from engine/src/games/embed/embed.md, sharing
// no code with the engine. Squares are 1-based (row, column); every (from, to)
// pair is tried, and the end of the game is judged by the order ruling.
