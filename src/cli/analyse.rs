//! `pbem analyse`: the bot's analysis of a game, move by move.

use super::site::Bar;
use super::{Source, out};
use clap::Args;
use pbem_engine::bot::analyse::{self, Analysis, Mark, Ply};
use pbem_engine::bot::{Budget, EVAL_LIMIT, Level, Limits, WIN};
use serde_json::json;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Analyse a game with the bot: for each move, the evaluation before it
/// from the mover's side, the bot's best move there, the evaluation after
/// the move played, and a mark where the move played lost much: `?!` an
/// inaccuracy, `?` a mistake, `??` a blunder.
///
/// Evaluations are in pieces (+1.00: a piece ahead), from the side that
/// moves; a proven result reads "wins in N" or "loses in N". A move
/// loses what separates its evaluation from the best move's: 0.60 or
/// more is an inaccuracy, 1.50 a mistake, 3.00 a blunder, and so is a
/// proven result thrown away ("result" lost; a slower win is no
/// blunder). Each
/// position is searched as the bot searches for its move; with --nodes
/// the analysis is the same every time (with the same --seed). Every
/// best move is one `pbem moves` lists there.
///
/// Exit status: 0 the game analysed; 1 a bad record; 2 bad arguments.
///
/// Examples:
///   pbem analyse engine/src/games/mad/mad.toml
///   pbem analyse game.toml --nodes 20000 --seed 7 --json
///   pbem analyse engine/src/games/embed/embed.toml --think-ms 500
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Analyse {
    /// The record (`-` reads standard input).
    #[arg(value_name = "FILE")]
    file: String,
    #[command(flatten)]
    source: Source,
    /// Think this many milliseconds for each position.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    think_ms: u64,
    /// Search this many positions for each position instead of a time:
    /// the same analysis every time (with the same --seed).
    #[arg(long, value_name = "N", conflicts_with = "think_ms")]
    nodes: Option<u64>,
    /// Seeds the order in which equally good moves are tried.
    #[arg(long, value_name = "N", default_value_t = 0)]
    seed: u64,
    /// Print JSON: each move's evaluations, best move, loss and mark,
    /// and each side's marks.
    #[arg(long)]
    json: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

impl Analyse {
    pub fn execute(self) -> anyhow::Result<i32> {
        let Some(rec) = self.source.load_reported(&self.file) else {
            return Ok(1);
        };
        let limits = Limits {
            think: match self.nodes {
                Some(n) => Budget::Nodes(n.max(1)),
                None => Budget::Time(Duration::from_millis(self.think_ms.max(1))),
            },
            level: Level::MAX,
        };
        let started = Instant::now();
        let mut bar = Bar::new(
            !self.quiet && std::io::stderr().is_terminal(),
            "positions",
            started,
        );
        let analysis = match analyse::analyse(&rec, &limits, self.seed, &mut |d, of| {
            bar.show(d, of);
        }) {
            Ok(a) => a,
            Err(e) => {
                bar.end();
                eprintln!("{e}");
                return Ok(1);
            }
        };
        bar.end();
        let spent = started.elapsed();
        let sides = sides(&analysis);
        if self.json {
            let plies: Vec<_> = analysis.plies.iter().map(ply_json).collect();
            let sides: serde_json::Map<_, _> = sides
                .iter()
                .map(|(side, t)| ((*side).to_string(), t.json()))
                .collect();
            out!(
                "{}",
                json!({
                    "file": self.file,
                    "rules": rec.rules.slug(),
                    "id": rec.id,
                    "moves": analysis.plies.len(),
                    "nodes": analysis.nodes,
                    "seconds": (spent.as_secs_f64() * 100.0).round() / 100.0,
                    "seed": self.seed,
                    "think": match self.nodes {
                        Some(n) => json!({ "nodes": n }),
                        None => json!({ "ms": self.think_ms }),
                    },
                    "plies": plies,
                    "sides": sides,
                })
            );
        } else {
            print_text(&rec, &analysis, &sides, spent)?;
        }
        Ok(0)
    }
}

/// One side's marks and losses.
#[derive(Default)]
struct Tally {
    moves: usize,
    /// What the moves between two evaluations (not proven results) lost,
    /// and how many they were.
    lost: i64,
    weighed: usize,
    marks: [usize; 3],
}

impl Tally {
    fn count(&self, m: Mark) -> usize {
        self.marks[m as usize]
    }

    /// The average loss of a move between two evaluations, in pieces.
    fn average(&self) -> f64 {
        let moves = self.weighed.max(1) as f64;
        (self.lost as f64 / moves).round() / 100.0
    }

    fn json(&self) -> serde_json::Value {
        json!({
            "moves": self.moves,
            "inaccuracies": self.count(Mark::Inaccuracy),
            "mistakes": self.count(Mark::Mistake),
            "blunders": self.count(Mark::Blunder),
            "average_loss": self.average(),
        })
    }

    /// "2 inaccuracies, 1 mistake, no blunder; 0.12 lost a move".
    fn words(&self) -> String {
        let n = |k: usize, one: &str, many: &str| match k {
            0 => format!("no {one}"),
            1 => format!("1 {one}"),
            k => format!("{k} {many}"),
        };
        format!(
            "{}, {}, {}; {:.2} lost a move on average",
            n(self.count(Mark::Inaccuracy), "inaccuracy", "inaccuracies"),
            n(self.count(Mark::Mistake), "mistake", "mistakes"),
            n(self.count(Mark::Blunder), "blunder", "blunders"),
            self.average()
        )
    }
}

/// Each side's tally, in the order the sides first move.
fn sides(a: &Analysis) -> Vec<(&'static str, Tally)> {
    let mut out: Vec<(&'static str, Tally)> = Vec::new();
    for p in &a.plies {
        let i = match out.iter().position(|(s, _)| *s == p.side) {
            Some(i) => i,
            None => {
                out.push((p.side, Tally::default()));
                out.len() - 1
            }
        };
        let t = &mut out[i].1;
        t.moves += 1;
        if p.before.abs() <= EVAL_LIMIT && p.after.abs() <= EVAL_LIMIT {
            t.lost += i64::from(p.drop);
            t.weighed += 1;
        }
        if let Some(m) = p.mark {
            t.marks[m as usize] += 1;
        }
    }
    out
}

/// An evaluation for people: `+1.25`, `-0.40`, `wins in 3`, `won`.
fn shown(score: i32) -> String {
    if score > EVAL_LIMIT {
        match WIN - score {
            0 => "won".to_string(),
            n => format!("wins in {n}"),
        }
    } else if score < -EVAL_LIMIT {
        match WIN + score {
            0 => "lost".to_string(),
            n => format!("loses in {n}"),
        }
    } else {
        format!("{:+.2}", f64::from(score) / 100.0)
    }
}

fn ply_json(p: &Ply) -> serde_json::Value {
    json!({
        "ply": p.ply,
        "side": p.side,
        "played": p.played,
        "best": p.best,
        "before": p.before,
        "after": p.after,
        "before_text": shown(p.before),
        "after_text": shown(p.after),
        "lost": p.drop,
        "mark": p.mark.map(Mark::symbol),
        "mark_name": p.mark.map(Mark::name),
    })
}

fn print_text(
    rec: &pbem_engine::record::Record,
    a: &Analysis,
    sides: &[(&'static str, Tally)],
    spent: Duration,
) -> anyhow::Result<()> {
    out!(
        "{}{}: {} moves analysed, {} positions searched in {:.1} s",
        rec.rules.name(),
        rec.id
            .as_deref()
            .map_or(String::new(), |id| format!(" {id}")),
        a.plies.len(),
        a.nodes,
        spent.as_secs_f64()
    );
    let side_w = a
        .plies
        .iter()
        .map(|p| p.side.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let move_w = a
        .plies
        .iter()
        .map(|p| p.played.len().max(p.best.len()))
        .max()
        .unwrap_or(6)
        .max(6);
    out!(
        "{:>5}  {:<side_w$}  {:<move_w$}  {:>11}  {:<move_w$}  {:>11}  {:>6}",
        "move",
        "side",
        "played",
        "before",
        "best",
        "after",
        "lost"
    );
    for p in &a.plies {
        let proven = |s: i32| s.abs() > EVAL_LIMIT;
        let lost = match p.drop {
            0 => String::new(),
            _ if proven(p.before) || proven(p.after) => "result".to_string(),
            d => format!("{:.2}", f64::from(d) / 100.0),
        };
        let mark = p
            .mark
            .map_or(String::new(), |m| format!("  {} {}", m.symbol(), m.name()));
        out!(
            "{:>5}  {:<side_w$}  {:<move_w$}  {:>11}  {:<move_w$}  {:>11}  {:>6}{mark}",
            p.ply,
            p.side,
            p.played,
            shown(p.before),
            p.best,
            shown(p.after),
            lost
        );
    }
    for (side, t) in sides {
        out!("{side}: {}", t.words());
    }
    Ok(())
}
