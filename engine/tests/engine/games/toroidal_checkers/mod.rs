//! Toroidal Checkers rulings (engine/src/games/toroidal/toroidal-checkers.md),
//! each pinned by a position written as a diagram or a move list from the
//! start, and a naive implementation written straight from the rule text,
//! compared with the move generator (moves and resulting positions) on random
//! games and by perft.
//!
//! Square numbers in the diagrams: row 1 is 1-8, row 2 9-16, ... Dark
//! squares (heaven) are those with row + column odd: 2, 4, 6, 8, 9, 11, ...

use crate::support::{moves, play, refuse, set, sq};
use pbem_engine::game::{self, Game, Outcome, Side, View};
use pbem_engine::games::toroidal::{Piece, QUIET_LIMIT, Toroidal};
use pbem_engine::geom::{Geometry, Sq};
use pbem_engine::notation::Notation;
use pbem_engine::play;
use std::collections::BTreeSet;

mod naive;

const G: Geometry = Geometry::EIGHT;

fn pos(rows: &str, turn: Side) -> Toroidal {
    Toroidal::from_diagram(rows, turn, 0).unwrap()
}

const MAN_B: Option<Piece> = Some(Piece {
    side: Side::A,
    king: false,
});
const MAN_W: Option<Piece> = Some(Piece {
    side: Side::B,
    king: false,
});
const KING_W: Option<Piece> = Some(Piece {
    side: Side::B,
    king: true,
});

#[test]
fn setup_and_black_moves_first() {
    // engine/src/games/toroidal/toroidal-checkers.md, "Setup": black men on the
    // dark squares of rows 1-3, white on those of rows 6-8; black moves first
    // (whatever side is asked).
    for first in Side::BOTH {
        let p = Toroidal::start(first);
        assert_eq!(p.turn(), Side::A);
        let nums = |side| {
            p.squares_of(side)
                .iter()
                .map(|s| s.number())
                .collect::<Vec<_>>()
        };
        assert_eq!(nums(Side::A), [2, 4, 6, 8, 9, 11, 13, 15, 18, 20, 22, 24]);
        assert_eq!(
            nums(Side::B),
            [41, 43, 45, 47, 50, 52, 54, 56, 57, 59, 61, 63]
        );
        assert_eq!((p.in_heaven(Side::A), p.in_heaven(Side::B)), (12, 12));
        assert_eq!(p.quiet_moves(), 0);
    }
    // Forward moves wrap: 24 steps to 31 and, round the side, to 25.
    assert_eq!(
        moves(&Toroidal::start(Side::A)),
        set(&[
            "18-25", "18-27", "20-27", "20-29", "22-29", "22-31", "24-25", "24-31"
        ])
    );
}

#[test]
fn men_step_forward_kings_any_way_and_rows_never_promote() {
    // engine/src/games/toroidal/toroidal-checkers.md, "Steps": a man steps
    // diagonally forward (wrapping), a king in any diagonal direction; no
    // promotion by reaching a row.
    let mut p = pos(
        ". . . . . . . .
         . . . . B . . .
         . . . . . . . .
         . . . . . . . .
         . . . w . . . .
         . . . . . . . .
         . b . . . . . .
         . . . . . . . .",
        Side::A,
    );
    assert_eq!(
        moves(&p),
        set(&["13-4", "13-6", "13-20", "13-22", "50-57", "50-59"])
    );
    play(&mut p, "50-57");
    assert_eq!(p.piece(sq(57)), MAN_B, "the last row does not promote");
    play(&mut p, "36-27");
    // From the bottom row a black man steps on, round the edge, to row 1.
    let m = moves(&p);
    assert!(m.contains("57-2") && m.contains("57-8"), "{m:?}");
    assert!(!m.contains("57-50") && !m.contains("57-64"), "{m:?}");
    // White men go up: 27 to 18 or 20, never down to 34 or 36.
    play(&mut p, "57-2");
    assert_eq!(moves(&p), set(&["27-18", "27-20"]));
}

#[test]
fn capture_is_compulsory() {
    // engine/src/games/toroidal/toroidal-checkers.md, "Jumps": when any jump is
    // available the player must jump.
    let p = pos(
        ". . . . . . . .
         b . . . . . . .
         . . . . . b . .
         . . . . w . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . w . . .",
        Side::A,
    );
    assert_eq!(moves(&p), set(&["22x36"]));
    let e = refuse(&p, "9-18");
    assert_eq!(
        e,
        "9-18 is not a legal move for black: a capture is compulsory: 22x36 (see `pbem rules toroidal-checkers`, section Jumps)"
    );
    // A man jumps forward only: the white man on 29 cannot jump 38 behind
    // it, so white steps.
    let q = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . w . . .
         . . . . . b . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::B,
    );
    assert_eq!(moves(&q), set(&["29-20", "29-22"]));
}

#[test]
fn a_capture_is_compulsory_names_every_jump() {
    let p = pos(
        ". . . . . . . .
         . . . . w . . .
         . . . . . B . .
         . . . . w . . .
         . . . . . . . .
         . . . . . . . .
         b . . . . . . .
         . . . . . . . .",
        Side::A,
    );
    let e = refuse(&p, "49-58");
    assert!(e.contains("a capture is compulsory: 22x4 or 22x36"), "{e}");
}

#[test]
fn every_prefix_is_a_move_and_a_chain_may_return_to_its_start() {
    // engine/src/games/toroidal/toroidal-checkers.md, "Ruling: chains": the
    // piece may go on jumping but need not; every prefix of a chain is its own
    // legal move; a chain may come back to squares it passed, its starting
    // square included. Here a black man jumps round the torus along one
    // diagonal and back to 22, then on.
    let p = pos(
        ". . . . . . . .
         . . . . . . w .
         . . . . . b . .
         . . . . w . w .
         . . . . . . . .
         . . w . . . . .
         . . . . . . . .
         w . . . . . . .",
        Side::A,
    );
    assert_eq!(
        moves(&p),
        set(&[
            "22x36",
            "22x36x50",
            "22x36x50x8",
            "22x36x50x8x22",
            "22x36x50x8x22x40",
            "22x40",
        ])
    );
    // Stopping after one jump ends the turn.
    let mut q = p.clone();
    play(&mut q, "22x36");
    assert_eq!(q.turn(), Side::B);
    assert_eq!(q.piece(sq(36)), MAN_B);
    assert_eq!(q.piece(sq(30)), MAN_W, "the jumped man went to 30");
    assert!(game::outcome(&q).is_none());
}

#[test]
fn jumped_piece_goes_to_the_jumpers_left() {
    // engine/src/games/toroidal/toroidal-checkers.md: 1, 3, 5 or 7 squares
    // along its row to the jumping player's left: for black (facing down)
    // towards higher columns...
    let mut p = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . . . b . .
         . . . . w . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . w . . .",
        Side::A,
    );
    play(&mut p, "22x36");
    assert_eq!(p.piece(sq(29)), None);
    assert_eq!(p.piece(sq(30)), MAN_W, "29 + 1 column, not 28");
    assert_eq!(p.piece(sq(28)), None);
    // ... for white towards lower columns.
    let mut q = pos(
        ". b . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . b . . . .
         . . w . . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::B,
    );
    play(&mut q, "43x29");
    assert_eq!(q.piece(sq(35)), MAN_B, "36 - 1 column, not 37");
    assert_eq!(q.piece(sq(37)), None);
    // The shift wraps round the row: 24 (column 8) goes to 17 (column 1),
    // and the jump itself wraps: 15 over 24 lands on 25.
    let mut r = pos(
        ". . . . . . . .
         . . . . . . b .
         . . . . . . . w
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . w . . .",
        Side::A,
    );
    assert_eq!(moves(&r), set(&["15x25"]));
    play(&mut r, "15x25");
    assert_eq!(r.piece(sq(17)), MAN_W);
    // A jump across the top and bottom edges: 57 over 2 lands on 11.
    let s = pos(
        ". w . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         b . . . w . . .",
        Side::A,
    );
    assert_eq!(moves(&s), set(&["57x11"]));
}

#[test]
fn jumped_man_goes_to_the_first_empty_square_or_own_man_and_makes_a_king() {
    // engine/src/games/toroidal/toroidal-checkers.md: the first of the squares
    // that is empty or holds a man of the jumped piece's colour; landing on
    // such a man makes a king.
    let mut p = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . . . b . .
         . . . . w b . w
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . w . . .",
        Side::A,
    );
    let white_before = p.squares_of(Side::B).len();
    play(&mut p, "22x36");
    assert_eq!(p.piece(sq(30)), MAN_B, "30 holds a black man: passed over");
    assert_eq!(p.piece(sq(32)), KING_W, "the pair on 32 is a king");
    assert_eq!(p.piece(sq(26)), None);
    assert_eq!(p.squares_of(Side::B).len(), white_before - 1);
    // The king is permanent: it moves backwards (down) as well.
    let m = moves(&p);
    assert!(m.contains("32-39") && m.contains("32-23"), "{m:?}");
}

#[test]
fn a_jumped_king_only_lands_on_an_empty_square() {
    // engine/src/games/toroidal/toroidal-checkers.md, "Rulings": a jumped king
    // may only land on an empty square.
    let rows = |jumped: &str| {
        format!(
            ". . . . . . . .
             . . . . . . . .
             . . . . . b . .
             . . . . {jumped} w . .
             . . . . . . . .
             . . . . . . . .
             . . . . . . . .
             . . . . w . . ."
        )
    };
    let mut king = pos(&rows("W"), Side::A);
    play(&mut king, "22x36");
    assert_eq!(king.piece(sq(30)), MAN_W, "the king does not merge with 30");
    assert_eq!(king.piece(sq(32)), KING_W, "it goes on to the empty 32");
    let mut man = pos(&rows("w"), Side::A);
    play(&mut man, "22x36");
    assert_eq!(man.piece(sq(30)), KING_W, "a man merges with 30");
    assert_eq!(man.piece(sq(32)), None);
}

#[test]
fn a_jumped_piece_with_nowhere_to_go_leaves_the_game() {
    // engine/src/games/toroidal/toroidal-checkers.md: if no square qualifies
    // the piece leaves the game. Here 30 and 26 hold black men and 32 and 28
    // white kings (no merging).
    let mut p = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . . . b . .
         . b . W w b . W
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . w . . .",
        Side::A,
    );
    play(&mut p, "22x36");
    assert_eq!(p.squares_of(Side::B).len(), 3);
    for n in [26, 28, 30, 32] {
        assert!(p.piece(sq(n)).is_some());
    }
    assert_eq!(p.piece(sq(29)), None);
}

#[test]
fn jumped_pieces_move_at_once_in_chain_order() {
    // engine/src/games/toroidal/toroidal-checkers.md, "Rulings": each jumped
    // piece is moved as it is jumped, so a piece jumped later sees where
    // earlier ones went. The king on 22 jumps 29 (which goes to 30), then 27:
    // 28 is taken, so 27 lands on the man it finds on 30 and the pair becomes a
    // king.
    let rows = |first: &str| {
        format!(
            ". . . . . . . .
             . . . . . . . .
             . . . . . B . .
             . . w b {first} . . .
             . . . . . . . .
             . . . . . . . .
             . . . . . . . .
             . . . . w . . ."
        )
    };
    let mut p = pos(&rows("w"), Side::A);
    assert!(moves(&p).contains("22x36x18"), "{:?}", moves(&p));
    play(&mut p, "22x36x18");
    assert_eq!(p.piece(sq(30)), KING_W, "27 landed on 29's man on 30");
    assert_eq!(p.piece(sq(27)), None);
    assert_eq!(p.piece(sq(29)), None);
    assert_eq!(p.piece(sq(32)), None);
    // Order matters: a king jumped first takes 30, so the man jumped
    // second cannot merge with it and goes on to 32 (in the other order
    // the man would be on 30 and the king on 32).
    let mut q = pos(&rows("W"), Side::A);
    play(&mut q, "22x36x18");
    assert_eq!(q.piece(sq(30)), KING_W);
    assert_eq!(q.piece(sq(32)), MAN_W);
}

#[test]
fn a_player_with_no_piece_in_heaven_loses() {
    // engine/src/games/toroidal/toroidal-checkers.md, "Winning and drawing".
    // The chain that returns to its start moves all five white men from heaven
    // (dark squares) to hell.
    let p = pos(
        ". . . . . . . .
         . . . . . . w .
         . . . . . b . .
         . . . . w . w .
         . . . . . . . .
         . . w . . . . .
         . . . . . . . .
         w . . . . . . .",
        Side::A,
    );
    let mut q = p.clone();
    play(&mut q, "22x36x50x8x22");
    assert_eq!(q.in_heaven(Side::B), 1);
    assert!(game::outcome(&q).is_none());
    let mut r = p.clone();
    play(&mut r, "22x36x50x8x22x40");
    assert_eq!(r.in_heaven(Side::B), 0);
    assert_eq!(r.squares_of(Side::B).len(), 5, "the men are all in hell");
    let end = game::outcome(&r).unwrap();
    assert_eq!(end.outcome, Outcome::Win(Side::A));
    assert!(
        end.reason.contains("white has no piece left in heaven"),
        "{}",
        end.reason
    );
    assert!(moves(&r).is_empty());
    assert!(refuse(&r, "30-21").contains("the game is over"));
}

#[test]
fn forty_quiet_moves_draw_at_once_and_the_count_runs_from_the_first_move() {
    // engine/src/games/toroidal/toroidal-checkers.md, "Ruling: the forty-move draw".
    let mut p = Toroidal::start(Side::A);
    play(&mut p, "22-29");
    assert_eq!(p.quiet_moves(), 1, "the count runs from the first move");
    // Two kings shuffle: drawn at once on the 40th move, not before.
    let mut k = pos(
        ". B . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . W . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::A,
    );
    let cycle = ["2-11", "36-45", "11-2", "45-36"];
    for i in 0..40 {
        assert!(game::outcome(&k).is_none(), "over after {i} moves");
        play(&mut k, cycle[i % 4]);
    }
    assert_eq!(k.quiet_moves(), QUIET_LIMIT);
    let end = game::outcome(&k).unwrap();
    assert_eq!(end.outcome, Outcome::Draw);
    assert!(end.reason.contains("40 moves in a row without a jump"));
    assert!(moves(&k).is_empty());
}

#[test]
fn a_jump_restarts_the_count_and_a_chain_is_one_move() {
    // engine/src/games/toroidal/toroidal-checkers.md, "Ruling: the forty-move
    // draw": a whole chain is one move; the count restarts after every jump.
    let p = Toroidal::from_diagram(
        ". . . . . . . .
         . . . . . . w .
         . . . . . b . .
         . . . . w . w .
         . . . . . . . .
         . . w . . . . .
         . . . . . . . .
         w . . . . . . .",
        Side::A,
        39,
    )
    .unwrap();
    let mut q = p.clone();
    play(&mut q, "22x36x50");
    assert_eq!(q.quiet_moves(), 0);
    assert!(game::outcome(&q).is_none());
    // Without the jump the 40th move would draw.
    let r = Toroidal::from_diagram(
        ". . . . . . . .
         . . . . . . . .
         . . . . . b . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . w . . .",
        Side::A,
        39,
    )
    .unwrap();
    let mut s = r.clone();
    play(&mut s, "22-29");
    assert_eq!(game::outcome(&s).unwrap().outcome, Outcome::Draw);
}

#[test]
fn heaven_loss_comes_before_the_draw_and_the_draw_before_no_legal_move() {
    // The order of the brief: first heaven loss, then the 40-move draw,
    // then (generic) no legal move.
    let p = Toroidal::from_diagram(
        ". . . . . . . .
         . . . . . . . .
         . . . . . b . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . w . . . .",
        Side::B,
        40,
    )
    .unwrap();
    assert_eq!(p.in_heaven(Side::B), 0, "60 is a light square: hell");
    assert_eq!(game::outcome(&p).unwrap().outcome, Outcome::Win(Side::A));
    // White's only man (36) is blocked on every side; black's 40th quiet
    // move draws although white then has no legal move.
    let stuck = ". . . . . . . .
         . . . . . . . .
         . b . b . b . .
         . . b . b . . .
         . . . w . . . .
         . . b . b . . .
         . . . . . . . .
         . . . . . . . .";
    let mut q = Toroidal::from_diagram(stuck, Side::A, 39).unwrap();
    play(&mut q, "45-54");
    assert_eq!(q.count_moves(), 0);
    assert_eq!(game::outcome(&q).unwrap().outcome, Outcome::Draw);
    let mut r = Toroidal::from_diagram(stuck, Side::A, 0).unwrap();
    play(&mut r, "45-54");
    let end = game::outcome(&r).unwrap();
    assert_eq!(end.outcome, Outcome::Win(Side::A));
    assert!(
        end.reason.contains("white has no legal move"),
        "{}",
        end.reason
    );
}

#[test]
fn explanations_name_the_rule_and_the_facts() {
    let p = Toroidal::start(Side::A);
    let e = refuse(&p, "29-36");
    assert!(
        e.contains("29 is empty (black pieces: 2, 4, 6, 8, 9, 11, 13, 15, 18, 20, 22, 24)"),
        "{e}"
    );
    let e = refuse(&p, "41-34");
    assert!(
        e.contains("41 holds a white man, and it is black's turn"),
        "{e}"
    );
    let e = refuse(&p, "22-13");
    assert!(
        e.contains("men move only forward (down the board for black): 22-13 goes up"),
        "{e}"
    );
    let e = refuse(&p, "9-18");
    assert!(e.contains("18 is occupied by a black man"), "{e}");
    let e = refuse(&p, "22x36");
    assert!(
        e.contains("29 is empty: there is no enemy piece to jump between 22 and 36"),
        "{e}"
    );
    let e = refuse(&p, "22-38");
    assert!(
        e.contains("22 and 38 are not diagonal neighbours") && e.contains("13, 15, 29 or 31"),
        "{e}"
    );
    assert!(e.contains("legal moves from 22: 22-29, 22-31"), "{e}");
    let e = refuse(&p, "22-off");
    assert!(e.contains("wraps"), "{e}");
    let e = refuse(&p, "22x18");
    assert!(e.contains("18 is not a jump from 22"), "{e}");
    // Chains: the first failing jump, after the ones that work.
    let q = pos(
        ". . . . . . . .
         . . . . . . w .
         . . . . . b . .
         . . . . w . w .
         . . . . . . . .
         . . w . . . . .
         . . . . . . . .
         w . . . . . . .",
        Side::A,
    );
    let e = refuse(&q, "22x36x18");
    assert!(
        e.contains("after 22x36, men jump only forward (down the board for black): 36x18 goes up"),
        "{e}"
    );
    let e = refuse(&q, "22x36x54");
    assert!(
        e.contains("after 22x36, 45 is empty: there is no enemy piece to jump"),
        "{e}"
    );
    let e = refuse(&q, "22x36x51");
    assert!(
        e.contains("51 is not a jump from 36") && e.contains("18, 22, 50 or 54"),
        "{e}"
    );
    let e = refuse(&q, "22-29");
    assert!(
        e.contains("29 is occupied by a white man") && e.contains("write 22x36"),
        "{e}"
    );
    let e = refuse(&q, "22x29");
    assert!(e.contains("29 is occupied by a white man"), "{e}");
    // Own pieces, and an occupied square beyond.
    let r = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . . . b . .
         . . . . b . w .
         . . . . . . . w
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::A,
    );
    let e = refuse(&r, "22x36");
    assert!(
        e.contains("29 holds your own man: you jump only enemy pieces"),
        "{e}"
    );
    let e = refuse(&r, "22x40");
    assert!(
        e.contains("the square beyond 31, 40, is occupied by a white man"),
        "{e}"
    );
}

#[test]
fn notation_is_canonical_and_forgives_the_capture_mark() {
    // docs/src/rules/common.md, "Canonical notation": a jump written with `-` is accepted
    // when exactly one legal move matches.
    let p = pos(
        ". . . . . . . .
         . . . . . . w .
         . . . . . b . .
         . . . . w . w .
         . . . . . . . .
         . . w . . . . .
         . . . . . . . .
         w . . . . . . .",
        Side::A,
    );
    let m = play::parse_move(&p, "22-36-50").unwrap();
    assert_eq!(game::canonical(&p, m), "22x36x50");
    let m = play::parse_move(&p, " 22 X 36 ").unwrap();
    assert_eq!(game::canonical(&p, m), "22x36");
    let s = Toroidal::start(Side::A);
    let m = play::parse_move(&s, "24x25").unwrap();
    assert_eq!(game::canonical(&s, m), "24-25");
    let n = s.notation(m);
    assert_eq!(n, Notation::step(sq(24), sq(25), false));
}

/// Prints boards for a look (`cargo test --test rules_toroidal_checkers
/// diagram -- --nocapture`) and checks what they must show.
#[test]
fn diagram_shows_heaven_pieces_kings_and_the_draw_count() {
    let d0 = Toroidal::start(Side::A).diagram(&View::default());
    println!("{d0}");
    let mut p = Toroidal::start(Side::A);
    for m in MIDGAME.split_whitespace() {
        play(&mut p, m);
    }
    let (m, n) = game::listed_moves(&p)[0].clone();
    p.play_unchecked(m);
    let d = p.diagram(&View {
        last: Some(n),
        seat: None,
        ply: 5,
        ..View::default()
    });
    println!("{d}");
    let k = Toroidal::from_diagram(
        ". B . . . . . .
         . . . . . . . .
         . . . . . b . .
         . . . . . . . .
         . . . W . . . .
         . . . . . . . .
         . . . . . . w .
         . . . . . . . .",
        Side::A,
        17,
    )
    .unwrap();
    let dk = k.diagram(&View {
        last: None,
        seat: Some(Side::A),
        ply: 30,
        ..View::default()
    });
    println!("{dk}");
    for d in [&d0, &d, &dk] {
        assert!(d.lines().all(|l| l.chars().count() <= 72), "{d}");
        assert!(d.contains(":: = heaven"), "{d}");
        assert!(d.contains("The board wraps"), "{d}");
        assert!(d.contains("Count of moves without a jump:"), "{d}");
    }
    assert!(d0.contains("|::b:|") && d0.contains("|::w:|"), "{d0}");
    assert!(d0.contains("|  1 |"), "hell squares are blank: {d0}");
    assert!(
        d0.contains("Toroidal Checkers: move 1, black to play."),
        "{d0}"
    );
    assert!(
        d0.contains("In heaven: black 12, white 12. In hell: black 0, white 0."),
        "{d0}"
    );
    assert!(d.contains('['), "the last move is marked: {d}");
    assert!(dk.contains(":BB:") && dk.contains(":WW:"), "{dk}");
    assert!(
        dk.contains("Count of moves without a jump: 17 of 40"),
        "{dk}"
    );
    assert!(
        dk.lines().any(|l| l.starts_with("| 64 |")),
        "black's seat turns the board: {dk}"
    );
}

// ---------------------------------------------------------------------
// The naive reference: the rules straight from
// engine/src/games/toroidal/toroidal-checkers.md, sharing no code with the
// generator (its own board, row/column arithmetic, chains, relocation, end
// checks).

type Cells = Vec<Option<(Side, bool)>>;

/// The moves to the first mid-game position of the perft table (a random
/// game, seed 3, 24 moves).
const MIDGAME: &str = "22-29 43-34 18-27 52-43 27-36 45x27 35-44 41-40 24-31 40x22 13x31 27x13 \
    4x22 47-40 31x41 50x40 29-38 34-27 19-26 33x19 25x47 54x40 48-49 43-34";
