//! Dragons Teeth rulings (engine/src/games/dragons_teeth/dragons-teeth.md),
//! each pinned by a position written as a diagram or a move list from the
//! start, and a naive legal move list written straight from the rule text,
//! compared with the move generator on random games and by perft.

use crate::support::{moves, moves_from as from, play, refuse, sq};
use pbem_engine::game::{self, Game, Outcome, Side, View};
use pbem_engine::games::dragons_teeth::DragonsTeeth;
use pbem_engine::geom::Geometry;
use pbem_engine::notation;
use pbem_engine::play;
use std::collections::BTreeSet;

mod naive;

const G: Geometry = Geometry::EIGHT;

fn pos(rows: &str, turn: Side) -> DragonsTeeth {
    DragonsTeeth::from_diagram(rows, turn, [0, 0]).unwrap()
}

#[test]
fn setup_follows_the_ruling() {
    // engine/src/games/dragons_teeth/dragons-teeth.md, "Ruling: the setup":
    // black large on 1..8, medium on 9..16, small on 17..24; red small on
    // 41..48, medium on 49..56, large on 57..64; rows 4 and 5 empty.
    let p = DragonsTeeth::start(Side::A);
    for n in 1..=64u8 {
        let want = match n {
            1..=8 => Some((Side::A, 3)),
            9..=16 => Some((Side::A, 2)),
            17..=24 => Some((Side::A, 1)),
            41..=48 => Some((Side::B, 1)),
            49..=56 => Some((Side::B, 2)),
            57..=64 => Some((Side::B, 3)),
            _ => None,
        };
        assert_eq!(p.tooth(sq(n)), want, "square {n}");
    }
    assert_eq!((p.score(Side::A), p.score(Side::B)), (0, 0));
}

#[test]
fn either_side_may_move_first() {
    // engine/src/games/dragons_teeth/dragons-teeth.md: first side named at game creation.
    assert_eq!(DragonsTeeth::start(Side::A).turn(), Side::A);
    assert_eq!(DragonsTeeth::start(Side::B).turn(), Side::B);
    let red = moves(&DragonsTeeth::start(Side::B));
    assert!(red.contains("41-33") && red.contains("41x17"), "{red:?}");
}

#[test]
fn a_tooth_moves_any_distance_in_eight_directions_through_empty_squares() {
    // engine/src/games/dragons_teeth/dragons-teeth.md, "Moving": any distance
    // in a straight line, 8 directions; the distance has nothing to do with the
    // tooth's height.
    let p = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . B1 . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . R3 . . . . . .",
        Side::A,
    );
    let m = from(&p, 28);
    // Rows, columns and both diagonals, to the edges: 7 + 7 + 7 + 6 = 27.
    assert_eq!(m.len(), 27 + 1, "27 squares and off: {m:?}");
    for t in [
        "28-1", "28-4", "28-7", "28-25", "28-32", "28-49", "28-60", "28-55", "28-off",
    ] {
        assert!(m.contains(t), "{t} in {m:?}");
    }
    // A knight's jump is not a straight line.
    let e = refuse(&p, "28-45");
    assert!(e.contains("not in a straight line"), "{e}");
}

#[test]
fn nothing_passes_through_any_tooth() {
    // engine/src/games/dragons_teeth/dragons-teeth.md, "Moving": nothing passes
    // through any tooth, friend or enemy; eliminating ends the move.
    let p = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . B3 . . . .
         . . . B1 . . . .
         . . . . . . . .
         . . . R1 . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::A,
    );
    let e = refuse(&p, "20-36");
    assert!(e.contains("blocked at 28"), "{e}");
    let m = from(&p, 28);
    assert!(m.contains("28-36") && m.contains("28x44"), "{m:?}");
    assert!(!m.contains("28-52"), "{m:?}");
    let e = refuse(&p, "28-52");
    assert!(e.contains("blocked at 44"), "{e}");
    assert!(e.contains("no tooth moves through another tooth"), "{e}");
}

#[test]
fn elimination_needs_attack_at_least_the_target_strength() {
    // engine/src/games/dragons_teeth/dragons-teeth.md, "Moving": small 1,
    // medium 2, large 3; equal is enough.
    let p = pos(
        ". . . . . . . .
         . . . . . . . .
         . R1 R1 . R2 . . .
         . . . . . . . .
         . B1 . . B2 . . R3
         . . . . . . . .
         . R2 . . . . . .
         . . . . . . . B3",
        Side::A,
    );
    let m = moves(&p);
    assert!(m.contains("34x18"), "small takes small: {m:?}");
    assert!(m.contains("37x21"), "medium takes medium: {m:?}");
    assert!(m.contains("37x19"), "medium takes small: {m:?}");
    assert!(
        !m.contains("34x50") && !m.contains("37x40"),
        "too weak: {m:?}"
    );
    assert!(
        m.contains("34-42") && m.contains("37-39"),
        "stopping short is fine: {m:?}"
    );
    assert!(m.contains("64x40"), "large takes large: {m:?}");
    let mut q = p.clone();
    play(&mut q, "64x40");
    assert_eq!(
        q.tooth(sq(40)),
        Some((Side::A, 3)),
        "the eliminator stands there"
    );
    assert_eq!(q.tooth(sq(64)), None);
    let e = refuse(&p, "37x40");
    assert!(
        e.contains(
            "attack 2 (medium tooth 2, no assistants) is less than the large tooth's strength 3"
        ),
        "{e}"
    );
}

#[test]
fn assistants_are_all_the_movers_other_teeth_next_to_the_target() {
    // engine/src/games/dragons_teeth/dragons-teeth.md, "Moving": attack = mover
    // + all the mover's other teeth adjacent (8 neighbours, diagonals included)
    // to the target. The rule book's example: a small tooth assisted by a
    // medium takes a large.
    let p = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . R3 . . . .
         . . . . B2 . . .
         . . . B1 . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::A,
    );
    assert!(moves(&p).contains("36x20"), "1 + diagonal assist 2 = 3");
    // The medium attacking with the small not adjacent: 2 < 3 (rule book).
    let e = refuse(&p, "29x20");
    assert!(
        e.contains("attack 2 (medium tooth 2, no assistants)"),
        "{e}"
    );
    // Two small assistants add up: 1 + 1 + 1 = 3.
    let q = pos(
        ". . . . . . . .
         . . B1 . B1 . . .
         . . . R3 . . . .
         . . . . . . . .
         . . . B1 . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::A,
    );
    assert!(moves(&q).contains("36x20"));
    // Only one of them: 1 + 1 = 2, and the message gives the sum.
    let r = pos(
        ". . . . . . . .
         . . B1 . . . . .
         . . . R3 . . . .
         . . . . . . . .
         . . . B1 . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::A,
    );
    assert!(!moves(&r).contains("36x20"));
    let e = refuse(&r, "36x20");
    assert!(
        e.contains(
            "attack 2 (small 1 + assist from 11 (1) = 2) is less than the large tooth's strength 3"
        ),
        "{e}"
    );
    // Enemy teeth next to the target never assist the mover.
    let s = pos(
        ". . . . . . . .
         . . R1 . R2 . . .
         . . . R3 . . . .
         . . . . . . . .
         . . . B1 . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::A,
    );
    assert!(!moves(&s).contains("36x20"));
}

#[test]
fn the_mover_never_assists_itself() {
    // engine/src/games/dragons_teeth/dragons-teeth.md, "Moving": "the mover's
    // OTHER teeth"; a mover that starts next to the target counts once.
    let p = pos(
        ". . . . . . . .
         . . . . . . . .
         . . B2 R3 . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::A,
    );
    assert!(!moves(&p).contains("19x20"));
    let e = refuse(&p, "19x20");
    assert!(
        e.contains("attack 2 (medium tooth 2, no assistants)"),
        "{e}"
    );
    assert!(e.contains("never assists itself"), "{e}");
    // With a small friend next to the target: 2 + 1 = 3.
    let q = pos(
        ". . . . . . . .
         . . . . . . . .
         . . B2 R3 . . . .
         . . . . B1 . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::A,
    );
    assert!(moves(&q).contains("19x20"));
    // The small moving in is assisted by the medium (1 + 2), not by itself.
    assert!(moves(&q).contains("29x20"));
}

#[test]
fn red_teeth_assist_and_eliminate_too() {
    // The rule book's diagram is red's turn: small + adjacent medium = 3.
    let p = pos(
        ". . . . . . . .
         . . . B3 . . . .
         . . . . R2 . . .
         . . . R1 . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::B,
    );
    let m = moves(&p);
    assert!(m.contains("28x12"), "{m:?}");
    let mut q = p.clone();
    play(&mut q, "28x12");
    assert_eq!(q.tooth(sq(12)), Some((Side::B, 1)));
    assert_eq!(q.turn(), Side::A);
}

#[test]
fn black_moves_off_the_bottom_edge_and_red_off_the_top() {
    // engine/src/games/dragons_teeth/dragons-teeth.md, "Moving off": black
    // through the bottom edge, red through the top, any distance; a tooth that
    // leaves scores its strength.
    let mut p = pos(
        ". . . . . . . .
         . . . B2 . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . R3 . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::A,
    );
    assert!(
        moves(&p).contains("12-off"),
        "a whole open column: any distance"
    );
    play(&mut p, "12-off");
    assert_eq!((p.score(Side::A), p.score(Side::B)), (2, 0));
    assert!(moves(&p).contains("38-off"));
    play(&mut p, "38-off");
    assert_eq!((p.score(Side::A), p.score(Side::B)), (2, 3));
    // Never through one's own home edge.
    let q = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . B1 B1 B1 . . .
         . . . R1 . . . .",
        Side::B,
    );
    assert!(
        !moves(&q).contains("60-off"),
        "red on the bottom row is not off"
    );
    let e = refuse(&q, "60-off");
    assert!(
        e.contains("red teeth leave only through the top edge"),
        "{e}"
    );
    assert!(
        e.contains(
            "straight up is blocked at 52, up-left is blocked at 51 and up-right is blocked at 53"
        ),
        "{e}"
    );
    // Likewise black on the top row.
    let r = pos(
        ". . . B1 . . . .
         . . R1 R1 R1 . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::A,
    );
    assert!(!moves(&r).contains("4-off"));
}

#[test]
fn moving_off_straight_or_diagonally_forward_with_the_far_corner() {
    // engine/src/games/dragons_teeth/dragons-teeth.md, "Moving off": forward or
    // diagonally forward, any distance; the far corner is allowed.
    let p = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         B1 . . . . . . .
         R1 . . . . . . .",
        Side::A,
    );
    // 49: straight down blocked at 57, down-left off the left edge,
    // down-right 58 and off through the bottom edge.
    assert!(moves(&p).contains("49-off"));
    // Far corner: red 22 -> 15 -> 8 -> off, the other lines blocked.
    let s = pos(
        ". . . . . . . .
         . . . . B1 B1 . .
         . . . . . R2 . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::B,
    );
    assert!(moves(&s).contains("22-off"));
    let mut t = s.clone();
    play(&mut t, "22-off");
    assert_eq!(t.score(Side::B), 2, "a medium tooth scores 2");
    // One move even when all three lines lead off.
    let u = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . R2 . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . B1",
        Side::B,
    );
    let listed = game::listed_moves(&u);
    assert_eq!(
        listed
            .iter()
            .filter(|(_, n)| n.canonical(G) == "38-off")
            .count(),
        1,
        "one move even when three lines lead off"
    );
}

#[test]
fn side_edges_are_no_way_off() {
    // engine/src/games/dragons_teeth/dragons-teeth.md, "Moving off": a line
    // that reaches a side edge before the last row does not leave the board.
    let p = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . B1
         . . . . . . . .
         . . . . . . . R1",
        Side::A,
    );
    // 48: straight down blocked at 64; down-right is the right edge;
    // down-left 55, 62 then off: legal.
    assert!(moves(&p).contains("48-off"));
    let q = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . B1
         . . . . . . R1 .
         . . . . . . . R1",
        Side::A,
    );
    assert!(!moves(&q).contains("48-off"));
    let e = refuse(&q, "48-off");
    assert!(
        e.contains("straight down is blocked at 64, down-left is blocked at 55 and down-right runs off the right edge"),
        "{e}"
    );
    // From the side column the outward diagonal runs off that edge.
    let t = pos(
        ". . . . . . . .
         B1 B1 . . . . . .
         R1 . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::B,
    );
    assert!(!moves(&t).contains("17-off"));
    let e = refuse(&t, "17-off");
    assert!(e.contains("up-left runs off the left edge"), "{e}");
}

#[test]
fn a_tooth_on_the_last_row_may_leave_even_from_a_corner() {
    // engine/src/games/dragons_teeth/dragons-teeth.md, "Moving off": a tooth
    // already on the last row steps off.
    let p = pos(
        ". . . . . . . R3
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         B1 . . . . . . .",
        Side::A,
    );
    assert!(moves(&p).contains("57-off"));
    let mut q = p.clone();
    play(&mut q, "57-off");
    assert!(moves(&q).contains("8-off"));
}

#[test]
fn six_points_off_wins_and_the_first_to_get_there_wins() {
    // engine/src/games/dragons_teeth/dragons-teeth.md, "End of the game": the
    // first side to have moved off 6 or more wins.
    let rows = ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . B1 . . . . . B3
         . . . R2 . . . .";
    let mut p = DragonsTeeth::from_diagram(rows, Side::A, [4, 5]).unwrap();
    play(&mut p, "50-off");
    assert_eq!(p.score(Side::A), 5);
    assert!(game::outcome(&p).is_none(), "5 is not enough");
    let mut q = DragonsTeeth::from_diagram(rows, Side::A, [5, 5]).unwrap();
    play(&mut q, "50-off");
    let end = game::outcome(&q).unwrap();
    assert_eq!(end.outcome, Outcome::Win(Side::A), "exactly 6 wins");
    assert!(end.reason.contains("black moved off 6"), "{}", end.reason);
    assert_eq!(q.count_moves(), 0, "a finished game has no moves");
    let mut r = DragonsTeeth::from_diagram(rows, Side::A, [4, 0]).unwrap();
    play(&mut r, "56-off");
    assert_eq!(
        game::outcome(&r).unwrap().outcome,
        Outcome::Win(Side::A),
        "7 wins too"
    );
    let mut s = DragonsTeeth::from_diagram(rows, Side::B, [5, 4]).unwrap();
    play(&mut s, "60-off");
    assert_eq!(game::outcome(&s).unwrap().outcome, Outcome::Win(Side::B));
    // A finished game refuses moves.
    assert!(refuse(&s, "50-off").contains("the game is over"));
}

#[test]
fn a_side_with_no_legal_move_loses() {
    // docs/src/rules/common.md, "Common ground": no pass; no legal move loses (generic).
    let p = DragonsTeeth::from_diagram(
        ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         B1 . . . . . . .",
        Side::B,
        [0, 3],
    )
    .unwrap();
    let end = game::outcome(&p).unwrap();
    assert_eq!(end.outcome, Outcome::Win(Side::A));
    assert!(end.reason.contains("red has no legal move"));
}

#[test]
fn refusals_name_the_rule_and_the_facts() {
    let p = DragonsTeeth::start(Side::A);
    let e = refuse(&p, "25-33");
    assert!(
        e.starts_with(
            "25-33 is not a legal move for black: 25 holds no black tooth (black teeth: 1, 2, 3,"
        ),
        "{e}"
    );
    let e = refuse(&p, "41-33");
    assert!(
        e.contains("41 holds a red tooth, and it is black's turn"),
        "{e}"
    );
    let e = refuse(&p, "1-9");
    assert!(e.contains("9 holds your own medium tooth"), "{e}");
    let e = refuse(&p, "1-17");
    assert!(e.contains("blocked at 9"), "{e}");
    let e = refuse(&p, "17-17");
    assert!(e.contains("must leave 17"), "{e}");
    let e = refuse(&p, "17-off");
    assert!(
        e.contains("black teeth leave only through the bottom edge"),
        "{e}"
    );
    assert!(e.contains("straight down is blocked at 41"), "{e}");
    assert!(e.contains("down-left runs off the left edge"), "{e}");
    assert!(e.contains("down-right is blocked at 44"), "{e}");
    assert!(
        e.contains("legal moves from 17: 17-25, 17-26, 17-33, 17-35, 17x41, 17x44"),
        "{e}"
    );
    let e = refuse(&p, "17-25:1");
    assert!(e.contains("leave out the `:` count"), "{e}");
    let e = refuse(&p, "17x25x33");
    assert!(e.contains("one move of one tooth"), "{e}");
    // A capture written with `-` and a quiet move with `x` are accepted
    // (docs/src/rules/common.md, "Canonical notation"), stored canonical.
    assert_eq!(
        game::canonical(&p, play::parse_move(&p, "17-41").unwrap()),
        "17x41"
    );
    assert_eq!(
        game::canonical(&p, play::parse_move(&p, "17x33").unwrap()),
        "17-33"
    );
    let n = notation::parse("27/36", G).unwrap();
    assert!(p.explain(&n).text.contains("square numbers"));
}

#[test]
fn diagrams_show_teeth_scores_and_the_last_move() {
    let mut p = DragonsTeeth::start(Side::A);
    play(&mut p, "20x44");
    let d = p.diagram(&View {
        last: Some(notation::parse("20x44", G).unwrap()),
        seat: None,
        ply: 1,
        ..View::default()
    });
    println!("{d}");
    assert!(d.contains("Dragons Teeth: move 2, red to play."), "{d}");
    assert!(
        d.contains("Strength moved off: black 0, red 0 (6 wins)."),
        "{d}"
    );
    assert!(d.contains("| B3 | B3 |"), "{d}");
    assert!(d.contains("[20]") && d.contains("[B1]"), "{d}");
    assert!(d.contains("| 25 |"), "{d}");
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
    assert!(first_row.ends_with("57-64"), "{first_row}");
}

// ---------------------------------------------------------------------
// The naive reference: straight from
// engine/src/games/dragons_teeth/dragons-teeth.md, sharing no code with the
// generator. Squares are (row, column) pairs; every (from, to) pair is tried.
