//! Mad Rooks and Mad Bishops rulings (engine/src/games/mad_rooks/mad-rooks.md
//! and engine/src/games/mad_rooks/mad-bishops.md), each pinned by a position
//! written as a diagram, and a naive move list written straight from the rule
//! text, compared with the move generator on random games and by perft. Both
//! games share one implementation, so both are tested here.

use crate::support::{
    after_each, moves, moves_from, naive_perft_is_perft, naive_perft_matches_table, perft_table,
    play, refuse, set, sq,
};
use pbem_engine::game::{self, Game, MoveError, Outcome, Side};
use pbem_engine::games::mad_rooks::{MadBishops, MadRooks};
use pbem_engine::geom::Sq;
use pbem_engine::notation::{Notation, Path};
use pbem_engine::play;
use std::collections::BTreeSet;

fn rooks(rows: &str, turn: Side) -> MadRooks {
    MadRooks::from_diagram(rows, turn).unwrap()
}

fn bishops(rows: &str, turn: Side) -> MadBishops {
    MadBishops::from_diagram(rows, turn).unwrap()
}

/// The legal moves from square `from`.

// ---------------------------------------------------------------------
// Mad Rooks (engine/src/games/mad_rooks/mad-rooks.md)

#[test]
fn rooks_setup_is_a_full_checkerboard_with_blue_on_square_1() {
    // engine/src/games/mad_rooks/mad-rooks.md, "Ruling: the setup": all 64
    // squares filled; blue where row + column is even (square 1 is blue), red
    // on the others.
    let p = MadRooks::start(Side::A);
    assert_eq!((p.count(Side::A), p.count(Side::B)), (32, 32));
    for n in 1..=64u8 {
        let (row, col) = ((n - 1) / 8 + 1, (n - 1) % 8 + 1);
        let want = if (row + col) % 2 == 0 {
            Side::B
        } else {
            Side::A
        };
        assert_eq!(p.checker(sq(n)), Some(want), "square {n}");
    }
    assert_eq!(p.checker(sq(1)), Some(Side::B));
    assert_eq!(p.checker(sq(2)), Some(Side::A));
    assert_eq!(p.checker(sq(9)), Some(Side::A));
    assert_eq!(p.checker(sq(64)), Some(Side::B));
    assert_eq!(game::side_name::<MadRooks>(Side::A), "red");
}

#[test]
fn red_moves_first_in_both_games() {
    // engine/src/games/mad_rooks/mad-rooks.md and
    // engine/src/games/mad_rooks/mad-bishops.md: red moves first; rules texts:
    // "starting with Red".
    for first in Side::BOTH {
        assert_eq!(MadRooks::start(first).turn(), Side::A);
        assert_eq!(MadBishops::start(first).turn(), Side::A);
    }
    assert_eq!(game::first_sides::<MadRooks>(), vec![Side::A]);
    // Every red checker of the full board sits next to blue ones: the 112
    // adjacent pairs of an 8x8 board are the first moves, all kills.
    let p = MadRooks::start(Side::A);
    let m = moves(&p);
    assert_eq!(m.len(), 112);
    assert!(m.iter().all(|m| m.contains('x')));
    assert!(m.contains("2x1") && m.contains("2x10") && m.contains("2x3"));
    assert!(!m.contains("1x2"), "square 1 is blue, not red's");
}

/// Red 18 can kill 17 and 22; red 60 cannot kill and engages.
const FIG_3_AND_4: &str = "
    . . . . . . . .
    . . . . . . . .
    B R . . . B . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . B
    . . . . . . . .
    . . . R . . . .";

#[test]
fn rooks_kill_an_enemy_in_line_along_a_row_or_column_at_any_distance() {
    // engine/src/games/mad_rooks/mad-rooks.md, "Killing": an enemy in line with
    // only empty squares between.
    let mut p = rooks(FIG_3_AND_4, Side::A);
    assert!(moves(&p).contains("18x22"), "three empty squares between");
    assert!(moves(&p).contains("18x17"), "adjacent");
    play(&mut p, "18x22");
    assert_eq!(
        p.checker(sq(22)),
        Some(Side::A),
        "the killer takes the square"
    );
    assert_eq!(p.checker(sq(18)), None);
    assert_eq!(p.count(Side::B), 2);
    assert_eq!(p.turn(), Side::B);
}

#[test]
fn a_rook_checker_in_position_to_kill_may_only_kill() {
    // engine/src/games/mad_rooks/mad-rooks.md, "Killing": "A checker that is in
    // position to kill may only kill." 18 could otherwise slide to 42, which
    // sees blue 48.
    let p = rooks(FIG_3_AND_4, Side::A);
    assert_eq!(moves_from(&p, 18), set(&["18x17", "18x22"]));
    let e = refuse(&p, "18-42");
    assert!(
        e.contains("18 can kill (17 and 22 are in line), so it may only kill"),
        "{e}"
    );
    assert!(e.contains("legal moves from 18: 18x17, 18x22"), "{e}");
}

#[test]
fn killing_is_not_mandatory_and_a_checker_that_cannot_kill_engages() {
    // engine/src/games/mad_rooks/mad-rooks.md, "Engaging"; rules text: "Killing
    // is not mandatory." Red 60 sees no blue checker; it slides along row 8 or
    // column 4 through empty squares to a square that sees one: 57 (blue 17 up
    // column 1), 62 (blue 22 up column 6), 64 (blue 48), 44 (blue 48 along row
    // 6), 20 (blue 22 along row 3). Not 58 (red 18 shields column 2), not 59,
    // 61, 63, 52, 36, 28, 12 or 4.
    let p = rooks(FIG_3_AND_4, Side::A);
    assert_eq!(
        moves_from(&p, 60),
        set(&["60-20", "60-44", "60-57", "60-62", "60-64"])
    );
    assert_eq!(moves(&p).len(), 7);
}

#[test]
fn an_engage_must_end_where_the_checker_could_kill() {
    // engine/src/games/mad_rooks/mad-rooks.md, "Engaging": only to a square
    // from which it would be in position to kill.
    let p = rooks(
        ". . . . . . . .
         . . . . . . . .
         . R . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . B",
        Side::A,
    );
    assert_eq!(moves(&p), set(&["18-24", "18-58"]));
    let e = refuse(&p, "18-42");
    assert_eq!(
        e,
        "18-42 is not a legal move for red: from 42 no blue checker is in line (along a row or column with only empty squares between), so 18-42 does not engage; a checker that cannot kill may only slide to a square from which it could kill (see `pbem rules mad-rooks`, section Engaging); legal moves from 18: 18-24, 18-58"
    );
    let e = refuse(&p, "20-28");
    assert_eq!(
        e,
        "20-28 is not a legal move for red: 20 is empty (red checkers: 18) (see `pbem rules mad-rooks`, section Setup)"
    );
    let e = refuse(&p, "64-56");
    assert!(
        e.contains("64 holds a blue checker, and it is red's turn (red checkers: 18)"),
        "{e}"
    );
    let e = refuse(&p, "18x42");
    assert!(
        e.contains("42 is empty, so there is nothing to kill there; from 42 no blue"),
        "{e}"
    );
    // An engage written with `x` is the engage (docs/src/rules/common.md,
    // "Canonical notation").
    assert_eq!(
        game::canonical(&p, play::parse_move(&p, "18x24").unwrap()),
        "18-24"
    );
}

#[test]
fn nothing_slides_or_kills_through_a_checker() {
    // engine/src/games/mad_rooks/mad-rooks.md: kill with "only empty squares
    // between"; slide "through empty squares". 42 would engage (blue 48 along
    // row 6) but red 26 blocks the way; red 20 shields blue 22 from 18.
    let p = rooks(
        ". . . . . . . .
         . . . . . . . .
         . R . R . B . .
         . R . . . . . .
         . . . . . . . .
         . . . . . . . B
         . . . . . . . .
         . . . . . . . .",
        Side::A,
    );
    let m = moves(&p);
    assert!(!m.contains("18-42") && !m.contains("18x22"), "{m:?}");
    assert!(m.contains("26-42"), "26 slides to 42 itself: {m:?}");
    assert!(m.contains("20x22"));
    let e = refuse(&p, "18-42");
    assert!(
        e.contains("the slide from 18 to 42 is blocked at 26"),
        "{e}"
    );
    let e = refuse(&p, "18x22");
    assert!(e.contains("the line from 18 to 22 is blocked at 20"), "{e}");
    let e = refuse(&p, "18-20");
    assert!(e.contains("20 holds a red checker of your own"), "{e}");
}

#[test]
fn rook_lines_are_rows_and_columns_only() {
    // engine/src/games/mad_rooks/mad-rooks.md: "along its row or column"; blue
    // 27 is diagonal to red 18.
    let p = rooks(
        ". . . . . . . .
         . . . . . . . .
         . R . . . . . .
         . . B . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::A,
    );
    let m = moves(&p);
    assert!(!m.contains("18x27"), "{m:?}");
    assert!(
        !m.contains("18-27") && !m.contains("18-36"),
        "no diagonal slides: {m:?}"
    );
    assert_eq!(moves_from(&p, 18), set(&["18-19", "18-26"]));
    let e = refuse(&p, "18x27");
    assert!(e.contains("18 and 27 are not on the same row or column: checkers move and kill only along rows and columns"), "{e}");
}

#[test]
fn killing_the_last_enemy_checker_wins_at_once() {
    // engine/src/games/mad_rooks/mad-rooks.md, "Winning": kill all enemy
    // checkers; checked after every move.
    let mut p = rooks(
        ". . . . . . . .
         . . . . . . . .
         . R . . . B . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . R",
        Side::A,
    );
    assert!(game::outcome(&p).is_none());
    play(&mut p, "18x22");
    let end = game::outcome(&p).unwrap();
    assert_eq!(end.outcome, Outcome::Win(Side::A));
    assert_eq!(end.reason, "red killed every blue checker");
    assert_eq!(p.count_moves(), 0);
    assert!(matches!(
        play::parse_move(&p, "64-56").unwrap_err().error,
        MoveError::GameOver(_)
    ));
    // Blue wins the same way.
    let mut q = rooks(
        ". . . . . . . .
         . . . . . . . .
         . R . . . B . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::B,
    );
    play(&mut q, "22x18");
    assert_eq!(game::outcome(&q).unwrap().outcome, Outcome::Win(Side::B));
}

#[test]
fn moves_that_are_no_single_step_explain_themselves() {
    let p = MadRooks::start(Side::A);
    let path = |lunge, to: Vec<u8>, off, count| {
        Notation::Path(Path {
            lunge,
            from: sq(2),
            to: to.into_iter().map(sq).collect(),
            off,
            capture: true,
            count,
        })
    };
    let e = p.explain(&path(false, vec![1, 3], false, None)).text;
    assert!(e.contains("never a chain"), "{e}");
    let e = p.explain(&path(true, vec![1], false, None)).text;
    assert!(e.contains("no lunges"), "{e}");
    let e = p.explain(&path(false, vec![1], false, Some(2))).text;
    assert!(e.contains("leave out the `:2`"), "{e}");
    let e = p.explain(&path(false, vec![], true, None)).text;
    assert!(e.contains("never leave the board"), "{e}");
    let e = p.explain(&path(false, vec![], false, None)).text;
    assert!(e.contains("square to move to"), "{e}");
    let e = p
        .explain(&Notation::Stones(vec![pbem_engine::geom::Point(3)]))
        .text;
    assert!(e.contains("square numbers"), "{e}");
    // Squares beyond the board never panic.
    let e = p.explain(&Notation::step(Sq(200), Sq(3), false)).text;
    assert!(e.contains("no square 201"), "{e}");
    let e = p.explain(&Notation::step(sq(2), Sq(64), true)).text;
    assert!(e.contains("no square 65"), "{e}");
    let e = refuse(&p, "2-2");
    assert!(e.contains("must leave 2"), "{e}");
    let e = refuse(&p, "1-2");
    assert!(e.contains("1 holds a blue checker"), "{e}");
    // play_unchecked must not panic even on a move it was never given.
    let mut q = p;
    q.play_unchecked(pbem_engine::games::mad_rooks::Move::Kill {
        from: Sq(250),
        to: Sq(99),
    });
}

// ---------------------------------------------------------------------
// Mad Bishops (engine/src/games/mad_rooks/mad-bishops.md)

#[test]
fn bishops_setup_fills_the_odd_squares_blue_on_odd_rows() {
    // engine/src/games/mad_rooks/mad-bishops.md, "Ruling: the setup": the 50
    // squares where row + column is odd; blue on rows 1, 3, 5, 7, 9, red on
    // rows 2, 4, 6, 8, 10.
    let p = MadBishops::start(Side::A);
    assert_eq!((p.count(Side::A), p.count(Side::B)), (25, 25));
    for n in 1..=100u8 {
        let (row, col) = ((n - 1) / 10 + 1, (n - 1) % 10 + 1);
        let want = match ((row + col) % 2, row % 2) {
            (0, _) => None,
            (_, 1) => Some(Side::B),
            _ => Some(Side::A),
        };
        assert_eq!(p.checker(sq(n)), want, "square {n}");
    }
    assert_eq!(p.checkers(Side::B)[..7], [2, 4, 6, 8, 10, 22, 24].map(sq));
    assert_eq!(p.checkers(Side::A)[..6], [11, 13, 15, 17, 19, 31].map(sq));
    assert_eq!(p.checker(sq(99)), Some(Side::A));
    assert_eq!(p.checker(sq(100)), None);
    assert_eq!(p.checker(sq(1)), None);
    // Red's first moves: the 81 diagonal neighbours of red checkers, all
    // blue (9 pairs between each two neighbouring rows).
    let m = moves(&p);
    assert_eq!(m.len(), 81);
    assert!(m.contains("11x2") && m.contains("11x22") && m.contains("99x90"));
}

/// Red 35 sees blue 68 down its south-east diagonal; red 92 cannot kill
/// and engages at 74 (blue 96 up the other diagonal).
const BISHOPS_FIG: &str = "
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . R . B . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . B . .
    . . . . . . . . . .
    . . . . . . . . . .
    . R . . . B . . . .";

#[test]
fn bishops_kill_and_engage_along_diagonals_only() {
    // engine/src/games/mad_rooks/mad-bishops.md: Mad Rooks with diagonals
    // instead of rows and columns.
    let p = bishops(BISHOPS_FIG, Side::A);
    // 35x68: two empty squares between. Blue 37 on 35's row is out of
    // reach (a rook would kill it); so is 96's column neighbour.
    assert_eq!(moves(&p), set(&["35x68", "92-74"]));
    let e = refuse(&p, "35x37");
    assert!(
        e.contains(
            "35 and 37 are not on the same diagonal: checkers move and kill only along diagonals"
        ),
        "{e}"
    );
    let e = refuse(&p, "35-24");
    assert!(
        e.contains("35 can kill (68 is in line), so it may only kill"),
        "{e}"
    );
    let e = refuse(&p, "92-83");
    assert!(
        e.contains("from 83 no blue checker is in line (along a diagonal with only empty squares between), so 92-83 does not engage"),
        "{e}"
    );
    let e = refuse(&p, "35-90");
    assert!(
        e.contains("the slide from 35 to 90 is blocked at 68"),
        "{e}"
    );
    let mut q = p;
    play(&mut q, "92-74");
    assert_eq!(q.checker(sq(74)), Some(Side::A));
    // Blue 96 now sees red 74 and may only kill; 68 sees red 35.
    assert_eq!(moves_from(&q, 96), set(&["96x74"]));
    assert_eq!(moves_from(&q, 68), set(&["68x35"]));
}

#[test]
fn bishops_win_by_killing_the_last_checker_and_squares_reach_100() {
    let mut p = bishops(
        ". . . . . . . . . .
         . . . . . . . . . .
         . . . . . . . . . .
         . . . . . . . . . .
         . . . . . . . . . .
         . . . . . . . . . .
         . . . . . . . . . .
         . . . . . . . . . .
         . . . . . . . . R .
         . . . . . . . . . B",
        Side::B,
    );
    assert_eq!(moves(&p), set(&["100x89"]));
    play(&mut p, "100x89");
    let end = game::outcome(&p).unwrap();
    assert_eq!(end.outcome, Outcome::Win(Side::B));
    assert_eq!(end.reason, "blue killed every red checker");
}

#[test]
fn a_side_with_no_legal_move_loses() {
    // docs/src/rules/common.md, "Common ground": no legal move loses. In play a
    // bishop never leaves its colour; a red checker put on a light square never
    // meets blue on the dark ones, so red is stuck.
    let p = bishops(
        "R B . . . . . . . .
         . . . . . . . . . .
         . . . . . . . . . .
         . . . . . . . . . .
         . . . . . . . . . .
         . . . . . . . . . .
         . . . . . . . . . .
         . . . . . . . . . .
         . . . . . . . . . .
         . . . . . . . . . .",
        Side::A,
    );
    assert!(p.decided().is_none());
    let end = game::outcome(&p).unwrap();
    assert_eq!(end.outcome, Outcome::Win(Side::B));
    assert_eq!(end.reason, "red has no legal move");
}

// ---------------------------------------------------------------------
// A naive implementation straight from the rule text, sharing no code
// with the generator: brute force over every (from, to) pair.

/// A board read through the public `checker` accessor only.
struct Naive {
    width: i32,
    diagonal: bool,
    cells: Vec<Option<Side>>,
    turn: Side,
}

impl Naive {
    fn of<G: Game>(p: &G, checker: impl Fn(Sq) -> Option<Side>) -> Naive {
        let g = game::geometry::<G>();
        Naive {
            width: g.width as i32,
            diagonal: G::RULES == pbem_engine::rules::Rules::MadBishops,
            cells: (0..g.squares()).map(|s| checker(Sq(s))).collect(),
            turn: p.turn(),
        }
    }
    fn rc(&self, s: usize) -> (i32, i32) {
        (s as i32 / self.width, s as i32 % self.width)
    }
    /// engine/src/games/mad_rooks/mad-rooks.md,
    /// engine/src/games/mad_rooks/mad-bishops.md: same row or column (Rooks),
    /// same diagonal (Bishops).
    fn in_line(&self, a: usize, b: usize) -> bool {
        let ((ra, ca), (rb, cb)) = (self.rc(a), self.rc(b));
        let (dr, dc) = (rb - ra, cb - ca);
        if a == b {
            return false;
        }
        if self.diagonal {
            dr.abs() == dc.abs()
        } else {
            dr == 0 || dc == 0
        }
    }
    /// Every square strictly between `a` and `b` (in line) is empty in
    /// `cells`.
    fn clear(&self, cells: &[Option<Side>], a: usize, b: usize) -> bool {
        let ((ra, ca), (rb, cb)) = (self.rc(a), self.rc(b));
        let (sr, sc) = ((rb - ra).signum(), (cb - ca).signum());
        let (mut r, mut c) = (ra + sr, ca + sc);
        while (r, c) != (rb, cb) {
            if cells[(r * self.width + c) as usize].is_some() {
                return false;
            }
            r += sr;
            c += sc;
        }
        true
    }
    /// Square `a` has an enemy of `me` in line with only empty squares
    /// between, on `cells`.
    fn in_position_to_kill(&self, cells: &[Option<Side>], a: usize, me: Side) -> bool {
        (0..cells.len())
            .any(|e| cells[e] == Some(me.other()) && self.in_line(a, e) && self.clear(cells, a, e))
    }
    /// The legal moves. With `after_leaving`, engage targets are judged with
    /// the moving checker lifted off its origin, the other reading
    /// engine/src/games/mad_rooks/mad-rooks.md, "Ruling: judging an engage",
    /// says gives the same moves.
    fn moves(&self, after_leaving: bool) -> BTreeSet<String> {
        let me = self.turn;
        let mut out = BTreeSet::new();
        let n = self.cells.len();
        let count = |s: Side| self.cells.iter().filter(|c| **c == Some(s)).count();
        if count(me) == 0 || count(me.other()) == 0 {
            return out; // engine/src/games/mad_rooks/mad-rooks.md, "Winning": the game is over.
        }
        for a in 0..n {
            if self.cells[a] != Some(me) {
                continue;
            }
            let can_kill = self.in_position_to_kill(&self.cells, a, me);
            let mut lifted = self.cells.clone();
            if after_leaving {
                lifted[a] = None;
            }
            for b in 0..n {
                if !self.in_line(a, b) || !self.clear(&self.cells, a, b) {
                    continue;
                }
                match self.cells[b] {
                    Some(s) if s != me => {
                        out.insert(format!("{}x{}", a + 1, b + 1));
                    }
                    None if !can_kill && self.in_position_to_kill(&lifted, b, me) => {
                        out.insert(format!("{}-{}", a + 1, b + 1));
                    }
                    _ => {}
                }
            }
        }
        out
    }
}

fn naive_rooks(p: &MadRooks) -> Naive {
    Naive::of(p, |s| p.checker(s))
}

fn naive_bishops(p: &MadBishops) -> Naive {
    Naive::of(p, |s| p.checker(s))
}

fn agree_on_random_games<G: Game>(naive: impl Fn(&G) -> Naive, games: u64) {
    let mut positions = 0;
    let mut engages = 0;
    for seed in 0..games {
        let (_, played) = game::random_game::<G>(Side::A, seed, 400);
        let mut p = G::start(Side::A);
        for m in played.into_iter().map(Some).chain([None]) {
            let listed = moves(&p);
            let n = naive(&p);
            assert_eq!(listed, n.moves(false), "seed {seed}");
            assert_eq!(listed, n.moves(true), "seed {seed}: lifted origin");
            assert_eq!(listed.len(), p.count_moves());
            engages += listed.iter().filter(|m| m.contains('-')).count();
            positions += 1;
            if let Some(m) = m {
                p.play_unchecked(m);
            }
        }
        assert!(game::outcome(&p).is_some(), "seed {seed}: random games end");
    }
    assert!(positions > 1000, "{positions}");
    assert!(engages > 1000, "{engages}");
}

#[test]
fn rooks_generator_agrees_with_the_naive_rules_on_random_games() {
    agree_on_random_games::<MadRooks>(naive_rooks, 30);
}

#[test]
fn bishops_generator_agrees_with_the_naive_rules_on_random_games() {
    agree_on_random_games::<MadBishops>(naive_bishops, 30);
}

/// The positions one naive move on from `p` (`naive` reads it).
fn naive_children<G: Game>(p: &G, naive: &impl Fn(&G) -> Naive) -> Vec<G> {
    after_each(p, &naive(p).moves(false))
}

/// Depths 1 and 2 of the naive rules at every position of the game's
/// perft table are the engine's perft and the table's counts.
fn table_agrees<G: Game>(naive: impl Fn(&G) -> Naive) {
    let children = |p: &G| naive_children(p, &naive);
    for t in perft_table::<G>() {
        naive_perft_is_perft(&t.pos, &t.pos, 1..=2, &children, &t.at);
    }
    naive_perft_matches_table::<G, G>(1..=2, G::clone, &children);
}

fn replay<G: Game>(moves: &str) -> G {
    let mut p = G::start(Side::A);
    for m in moves.split_whitespace() {
        play(&mut p, m);
    }
    p
}

#[test]
fn perft_tables_agree_with_the_naive_rules() {
    // The positions of tests/perft/mad-rooks.txt and mad-bishops.txt.
    table_agrees::<MadRooks>(naive_rooks);
    table_agrees::<MadBishops>(naive_bishops);
}

/// The last position of tests/perft/mad-bishops.txt.
const BISHOPS_LATE: &str = "19x28 86x97 73x64 44x33 75x66 42x31 28x10 97x64 10-19 50x39 57x48 24x13 55x64 6x15 66x33 30x19 17x26 84x95 53x62 31x64 11x22 68x59 37x46 13x22 26x8 59x77 51-42 88x99 46x64 19x8 93x82 15x33 64-55 4x48 62x95 39-17 79x90 17x35 95x77 99x77";

// ---------------------------------------------------------------------
// Diagrams

#[test]
fn diagrams_show_checkers_counts_and_the_last_move() {
    use pbem_engine::game::View;
    let mut p = MadRooks::start(Side::A);
    play(&mut p, "2x1");
    let d = p.diagram(&View {
        last: Some(Notation::step(sq(2), sq(1), true)),
        seat: Some(Side::B),
        ply: 1,
        ..View::default()
    });
    println!("{d}");
    assert!(d.starts_with("Mad Rooks: move 2, blue to play.\n"), "{d}");
    assert!(d.contains("Checkers on the board: red 32, blue 31"), "{d}");
    assert!(
        d.contains("|[ R]|[ 2]|  B |"),
        "last move marked, 1 at the top left: {d}"
    );
    assert!(d.contains("R = red checker, B = blue checker"), "{d}");
    assert!(d.contains("Last move: 2x1, marked [ ]."), "{d}");
    let q = replay::<MadBishops>(BISHOPS_LATE);
    let d = q.diagram(&View::default());
    println!("{d}");
    assert!(d.lines().all(|l| l.chars().count() <= 72), "{d}");
    assert!(d.contains("| 100 |  91-100"), "{d}");
    assert!(d.contains("Checkers on the board: red 6, blue 8"), "{d}");
    // A finished game says who won.
    let mut w = rooks(
        ". . . . . . . .
         . . . . . . . .
         . R . . . B . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::A,
    );
    play(&mut w, "18x22");
    let d = w.diagram(&View::default());
    let caption = d.replace('\n', " ");
    assert!(
        caption.contains("game over, red wins (red killed every blue checker)"),
        "{d}"
    );
}

/// Depth 3 of the perft tables by the naive rules; slow in a debug build:
/// `PBEM_DEEP=1 cargo test -p pbem-engine -- --include-ignored`.
#[test]
#[ignore = "slow: the naive cross-check, run by scripts/test"]
fn perft_depth_3_agrees_with_the_naive_rules() {
    let rooks = |p: &MadRooks| naive_children(p, &naive_rooks);
    naive_perft_matches_table::<MadRooks, _>(3..=3, MadRooks::clone, &rooks);
    let bishops = |p: &MadBishops| naive_children(p, &naive_bishops);
    naive_perft_matches_table::<MadBishops, _>(3..=3, MadBishops::clone, &bishops);
}
