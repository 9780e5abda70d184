//! What a finished game's pages show of the bot's analysis: the marks of
//! its moves (`?!`, `?`, `??`) in the move list, and the evaluation as a
//! small graph (inline SVG, drawn by `templates/site/graph.html` from the
//! points made here). Only a game with a whole analysis of its record as
//! it stands shows them; one whose file does not read is shown without,
//! and the error logged.

use crate::record::Record;
use crate::store::Store;
use crate::store::analysis::StoredAnalysis;
use minijinja::{Value, context};
use pbem_engine::bot::EVAL_LIMIT;
use pbem_engine::bot::analyse::Mark;

/// The graph's drawing area, in its own units.
const WIDTH: f64 = 300.0;
const HEIGHT: f64 = 100.0;

/// The evaluation (hundredths of a piece) drawn halfway from the middle
/// to the edge: a lead `s` is drawn at `s / (|s| + HALF)` of the way, so
/// that a small lead shows and a large one still moves; a proven result
/// at the edge.
const HALF: i32 = 300;

/// Game `id`'s analysis, if it has a whole one of `rec` as it stands.
pub(super) fn of(store: &Store, id: &str, rec: &Record) -> Option<StoredAnalysis> {
    let text = match store.analysis_text(id) {
        Ok(t) => t?,
        Err(e) => {
            log::warn!(
                "{}",
                crate::logging::line("site-analysis", &[("error", &e)])
            );
            return None;
        }
    };
    match StoredAnalysis::parse(&text) {
        Ok(a) if a.complete() && a.of(rec) => Some(a),
        // In part, or of other moves: a later poll makes it again.
        Ok(_) => None,
        Err(e) => {
            let error = format!("analysis/{id}.txt: {e}");
            log::warn!(
                "{}",
                crate::logging::line("site-analysis", &[("error", &error)])
            );
            None
        }
    }
}

/// The mark of move `ply` (from 1), if it has one.
pub(super) fn mark(a: Option<&StoredAnalysis>, ply: usize) -> Option<Value> {
    let p = a?.plies.get(ply.checked_sub(1)?)?;
    let m = p.mark?;
    Some(context! { symbol => m.symbol(), name => m.name() })
}

/// The graph of the evaluation from the first mover's side over plies
/// `first` to `last` (positions: 0 is the start), for the template: the
/// line's points, the marked moves' dots (each a link to its position),
/// and the sides above and below the middle.
pub(super) fn graph(a: &StoredAnalysis, first: usize, last: usize, sides: [&str; 2]) -> Value {
    let last = last.min(a.plies.len());
    let span = (last - first).max(1) as f64;
    // Position n's evaluation from the first mover's side: before move 1,
    // the first move's evaluation; after move n, move n's (from its
    // mover's side: the first mover's on odd moves).
    let eval = |n: usize| -> i32 {
        let (p, after) = match n {
            0 => (&a.plies[0], false),
            n => (&a.plies[n - 1], true),
        };
        let own = if after { p.after } else { p.before };
        let first_moved = p.ply % 2 == 1;
        if first_moved { own } else { -own }
    };
    let x = |n: usize| (n - first) as f64 / span * WIDTH;
    let y = |score: i32| {
        let share = if score.abs() > EVAL_LIMIT {
            f64::from(score.signum())
        } else {
            f64::from(score) / f64::from(score.abs() + HALF)
        };
        HEIGHT / 2.0 - share * (HEIGHT / 2.0)
    };
    let points: Vec<String> = (first..=last)
        .map(|n| format!("{:.1},{:.1}", x(n), y(eval(n))))
        .collect();
    let dots: Vec<Value> = (first.max(1)..=last)
        .filter_map(|n| {
            let m = a.plies[n - 1].mark?;
            let proven = eval(n).abs() > EVAL_LIMIT;
            Some(context! {
                ply => n, x => format!("{:.1}", x(n)), y => format!("{:.1}", y(eval(n))),
                symbol => m.symbol(), name => m.name(), blunder => m == Mark::Blunder, proven,
            })
        })
        .collect();
    context! {
        width => WIDTH, height => HEIGHT, middle => HEIGHT / 2.0,
        points => points.join(" "), dots, half => HALF / 100,
        above => sides[0], below => sides[1], first, last,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::analysis::StoredPly;

    fn ply(ply: usize, before: i32, after: i32, mark: Option<Mark>) -> StoredPly {
        StoredPly {
            ply,
            side: if ply % 2 == 1 { "black" } else { "red" }.into(),
            played: "1-2".into(),
            best: "3-4".into(),
            before,
            after,
            mark,
        }
    }

    #[test]
    fn the_graph_is_from_the_first_movers_side_and_kept_in_its_box() {
        let a = StoredAnalysis {
            id: "g".into(),
            moves: 0,
            nodes: 1,
            seed: 0,
            total: 3,
            plies: vec![
                ply(1, 100, 50, None),
                ply(2, -50, -400, Some(Mark::Blunder)),
                ply(3, 999_998, 999_998, None),
            ],
        };
        let g = graph(&a, 0, 3, ["black", "red"]);
        // 0: +1.00, 1: +0.50, 2: red's -4.00 is black's +4.00, 3: won.
        assert_eq!(
            g.get_attr("points").unwrap().to_string(),
            "0.0,37.5 100.0,42.9 200.0,21.4 300.0,0.0"
        );
        let dots = g.get_attr("dots").unwrap();
        assert_eq!(dots.len(), Some(1));
        assert_eq!(
            mark(Some(&a), 2)
                .unwrap()
                .get_attr("symbol")
                .unwrap()
                .to_string(),
            "??"
        );
        assert!(mark(Some(&a), 1).is_none());
        assert!(mark(None, 1).is_none());
        // A page of moves 2 to 3 only.
        let g = graph(&a, 2, 3, ["black", "red"]);
        assert_eq!(
            g.get_attr("points").unwrap().to_string(),
            "0.0,21.4 300.0,0.0"
        );
    }
}
