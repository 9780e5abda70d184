//! How M.A.D. moves are written and refused, and how its board is drawn.

use super::*;

#[test]
fn notation_writes_the_count_only_for_part_of_a_stack() {
    // engine/src/games/mad/mad.md, "Notation": `:k` only when k is less than
    // the whole stack; `x` when the destination holds enemy checkers.
    let p = pos(
        ". . . . . . . .
         . . . B4 R2 . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        B,
    );
    let m = moves(&p);
    for w in ["12-20", "12-20:1", "12-20:3", "12x13", "12x13:3", "L12-28"] {
        assert!(m.contains(w), "{w}: {m:?}");
    }
    assert!(!m.contains("12-20:4") && !m.contains("12x13:4"));
    assert_eq!(
        resolved(&p, "12-20:4"),
        "12-20",
        "a whole stack of 4 written :4"
    );
    assert_eq!(resolved(&p, "12X13:4"), "12x13");
    assert_eq!(
        resolved(&p, "12-13:2"),
        "12x13:2",
        "an attack written with -"
    );
    assert_eq!(resolved(&p, "l12-28:2"), "L12-28", "the lunge's own length");
    assert_eq!(
        resolved(&p, "L12-20-28"),
        "L12-28",
        "a lunge square by square"
    );
    assert_eq!(resolved(&p, " L12 - 36 "), "L12-36");
    let e = refuse(&p, "L12-28:3");
    assert!(e.contains("L12-28 moves 2 checkers, not 3"), "{e}");
    let e = refuse(&p, "12-20:5");
    assert!(e.contains(":5"), "{e}");
}

#[test]
fn distinct_counts_and_lengths_are_distinct_moves() {
    let p = Mad::start(B);
    let mut all = Vec::new();
    p.legal_moves(&mut all);
    let set: HashSet<Move> = all.iter().copied().collect();
    assert_eq!(set.len(), all.len());
    // 6 inner stacks x 6 empty neighbours x 4 counts, 2 edge stacks x 4 x
    // 4; lunges: 16 straight down, 11 down-left, 11 down-right.
    assert_eq!(all.len(), 6 * 24 + 2 * 16 + 16 + 22);
    assert_eq!(p.count_moves(), all.len());
    let m = moves(&p);
    assert!(
        m.contains("12-20")
            && m.contains("12-20:1")
            && m.contains("12-20:2")
            && m.contains("12-20:3")
    );
    assert!(m.contains("L12-28") && m.contains("L12-36"));
    assert!(
        m.contains("L12-26")
            && m.contains("L12-33")
            && m.contains("L12-30")
            && m.contains("L12-39")
    );
}

// -------------------------------------------------------------- explain

#[test]
fn refusals_name_the_rule_and_the_facts() {
    let p = Mad::start(B);
    let e = refuse(&p, "20-28");
    assert_eq!(
        e,
        "20-28 is not a legal move for black: 20 is empty (black stacks: 9 (4), 10 (4), 11 (4), 12 (4), 13 (4), 14 (4), 15 (4), 16 (4)) (see `pbem rules mad`, section Setup)"
    );
    let e = refuse(&p, "52-44");
    assert!(
        e.contains("52 holds 4 red checkers, and it is black's turn"),
        "{e}"
    );
    let e = refuse(&p, "12-28");
    assert!(e.contains("28 is not adjacent to 12"), "{e}");
    assert!(e.contains("lunge: L12-28"), "{e}");
    assert!(e.contains("legal moves from 12: "), "{e}");
    let e = refuse(&p, "12-47");
    assert!(e.contains("47 is not adjacent to 12"), "{e}");
    let e = refuse(&p, "12-13");
    assert!(
        e.contains("13 holds 4 black checkers; 4 more would make 8, the limit is 4; 13 is full"),
        "{e}"
    );
    let e = refuse(&p, "12-12");
    assert!(e.contains("must leave 12"), "{e}");
    let e = refuse(&p, "12-20-28");
    assert!(e.contains("one adjacent square"), "{e}");
    let e = refuse(&p, "12-off");
    assert!(e.contains("never leave the board"), "{e}");
    assert!(e.contains("red's home row (57-64)"), "{e}");
    let e = refuse(&p, "L12-29");
    assert!(e.contains("not in a straight line"), "{e}");
    assert_eq!(resolved(&p, "L12-4"), "12-4:1");
    let e = refuse(&p, "L12-14");
    assert!(
        e.contains("blocked at 13, which holds 4 black checkers"),
        "{e}"
    );
    let e = refuse(&p, "L12-44");
    assert!(
        e.contains("needs 4 of them, leaving nothing; it lunges at most 3 squares"),
        "{e}"
    );
    let q = pos(
        ". . . . . . . .
         . . . B2 . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . R1
         . . . . . . . .",
        B,
    );
    let e = refuse(&q, "12-20:3");
    assert!(
        e.contains("too many checkers: 12 holds 2 black checkers, and 3 were asked for"),
        "{e}"
    );
    let e = refuse(&q, "27/36");
    assert!(e.contains("square numbers"), "{e}");
}

#[test]
fn explain_and_normalize_never_panic() {
    let positions = [
        Mad::start(B),
        game::random_game::<Mad>(R, 5, 30).0,
        game::random_game::<Mad>(B, 9, 60).0,
    ];
    for p in &positions {
        if game::outcome(p).is_some() {
            continue;
        }
        for from in 0..64u8 {
            for to in 0..64u8 {
                for lunge in [false, true] {
                    for count in [None, Some(0), Some(1), Some(3), Some(4), Some(9)] {
                        for capture in [false, true] {
                            let n = notation::Notation::Path(notation::Path {
                                lunge,
                                from: Sq(from),
                                to: vec![Sq(to)],
                                off: false,
                                capture,
                                count,
                            });
                            let n = p.normalize(n);
                            let _ = game::resolve(p, &n);
                            assert!(!p.explain(&n).text.is_empty());
                        }
                    }
                }
            }
            let chain = notation::Notation::Path(notation::Path {
                lunge: true,
                from: Sq(from),
                to: vec![Sq(from), Sq((from + 9) % 64), Sq((from + 18) % 64)],
                off: false,
                capture: false,
                count: None,
            });
            let _ = p.explain(&p.normalize(chain.clone()));
            let _ = game::resolve(p, &chain);
            let _ = p.explain(&notation::Notation::off(Sq(from)));
        }
    }
}

// -------------------------------------------------------------- diagram

#[test]
fn the_diagram_shows_stacks_heights_counts_and_the_last_move() {
    let mut p = Mad::start(B);
    play(&mut p, "L12-36");
    let last = notation::parse("L12-36", G).unwrap();
    let d = p.diagram(&View {
        last: Some(last),
        seat: None,
        ply: 1,
        ..View::default()
    });
    println!("{d}");
    assert!(d.contains("M.A.D.: move 2, red to play."), "{d}");
    assert!(d.contains("Checkers on the board: black 32, red 32"), "{d}");
    assert!(d.contains("[B1]"), "the lunge's squares are marked: {d}");
    assert_eq!(d.matches("[B1]").count(), 4, "12, 20, 28 and 36: {d}");
    assert!(d.contains("| R4 |"), "{d}");
    assert!(d.contains("| 64 |"), "{d}");
    assert!(d.lines().all(|l| l.chars().count() <= 72));
    let first_row = d.lines().find(|l| l.starts_with('|')).unwrap();
    assert!(first_row.ends_with("1-8"), "{first_row}");
    // Black starts at the top, so black's seat turns the board.
    let flipped = p.diagram(&View {
        last: None,
        seat: Some(B),
        ply: 1,
        ..View::default()
    });
    println!("{flipped}");
    let first_row = flipped.lines().find(|l| l.starts_with('|')).unwrap();
    assert!(first_row.ends_with("57-64"), "{first_row}");
    let mut q = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . B3 R2 . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        B,
    );
    play(&mut q, "20x21");
    let d = q.diagram(&View::default());
    println!("{d}");
    assert!(d.contains("game over, black wins"), "{d}");
    assert!(d.contains("red has no checkers left"), "{d}");
}
