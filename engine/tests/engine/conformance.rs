//! The conformance suite that all eight games pass (docs/src/contributing.md,
//! "One trait, one conformance suite"): every listed move plays; nothing
//! unlisted plays; canonical notation round-trips; a finished game refuses
//! moves; random playouts end without a panic; diagrams fit a plain-text mail.

use pbem_engine::game::{self, Game, MoveError, Side, View};
use pbem_engine::geom::{Point, Sq};
use pbem_engine::notation::{self, Notation, Path};
use pbem_engine::play;
use std::collections::HashSet;

/// Random playouts per first side, and how long each may run.
const GAMES: u64 = 6;
const MAX_PLIES: usize = 400;

fn conformance<G: Game>() {
    for first in game::first_sides::<G>() {
        for seed in 0..GAMES {
            playout::<G>(first, seed);
        }
    }
}

fn playout<G: Game>(first: Side, seed: u64) {
    let geometry = G::RULES.geometry();
    let mut rng = fastrand::Rng::with_seed(seed * 7919 + first.index() as u64);
    let mut pos = G::start(first);
    let mut history: Vec<String> = Vec::new();
    for ply in 0..MAX_PLIES {
        let listed = game::listed_moves(&pos);
        let ctx = || format!("{} from {first:?} after {}", G::RULES, history.join(" "));
        assert_eq!(listed.len(), pos.count_moves(), "count_moves: {}", ctx());
        let first = listed.first().map(|(_, n)| n.clone());
        assert_eq!(game::first_listed(&pos), first, "first_listed: {}", ctx());
        let outcome = game::outcome(&pos);
        assert_eq!(
            listed.is_empty(),
            outcome.is_some(),
            "no moves exactly when the game is over: {}",
            ctx()
        );
        check_diagram(&pos, ply, &ctx);
        if let Some(end) = outcome {
            // A finished game refuses moves, whatever they are.
            for text in ["1-2", "22x15", "27/36,28/37", "1-off"] {
                if let Ok(n) = notation::parse(text, geometry) {
                    match game::resolve(&pos, &n) {
                        Err(MoveError::GameOver(e)) => assert_eq!(e, end),
                        other => panic!("finished game took {text}: {other:?} {}", ctx()),
                    }
                }
            }
            return;
        }
        let mut texts = HashSet::new();
        let legal: HashSet<G::Move> = listed.iter().map(|(m, _)| *m).collect();
        assert_eq!(legal.len(), listed.len(), "duplicate moves: {}", ctx());
        for (m, n) in &listed {
            // The origin a game tells is the square its notation starts on:
            // resolving skips the moves of other squares by it.
            if let Some(origin) = pos.origin(*m) {
                let Notation::Path(p) = n else {
                    panic!("{n:?} has an origin but no path: {}", ctx());
                };
                assert_eq!(origin, p.from, "origin of {n:?}: {}", ctx());
            }
            let text = n.canonical(geometry);
            assert!(
                texts.insert(text.clone()),
                "two moves written {text}: {}",
                ctx()
            );
        }
        // Every listed move on the early plies, a sample later on.
        let check_all = ply < 20;
        for (m, n) in listed.iter().filter(|_| check_all || rng.u8(..16) == 0) {
            let text = n.canonical(geometry);
            // Canonical notation round-trips: text -> notation -> same move.
            let parsed = notation::parse(&text, geometry)
                .unwrap_or_else(|e| panic!("canonical {text} does not parse: {e} {}", ctx()));
            assert_eq!(parsed.canonical(geometry), text);
            assert_eq!(&parsed, n, "{text} parses to another notation: {}", ctx());
            let resolved = game::resolve(&pos, &parsed)
                .unwrap_or_else(|e| panic!("listed move {text} refused: {e:?} {}", ctx()));
            assert_eq!(resolved, *m, "{text} resolves to another move: {}", ctx());
            // Upper case and spaces are accepted too.
            let shouted = format!("  {}  ", text.to_uppercase());
            assert_eq!(
                play::parse_move(&pos, &shouted).ok(),
                Some(*m),
                "{shouted:?}"
            );
        }
        // Nothing unlisted plays: random and near-miss candidates resolve
        // only to listed moves, and only when they name them.
        let mut candidates: Vec<Notation> = (0..20)
            .map(|_| random_notation(&mut rng, geometry))
            .collect();
        for (_, n) in listed
            .iter()
            .filter(|_| check_all || rng.u8(..16) == 0)
            .take(8)
        {
            candidates.extend(mutations(n, geometry));
        }
        for c in candidates {
            check_candidate(&pos, &c, &legal, &texts, &ctx);
        }
        let (m, n) = &listed[rng.usize(..listed.len())];
        let before = pos.clone();
        pos.play_unchecked(*m);
        assert_ne!(
            format!("{before:?}"),
            format!("{pos:?}"),
            "a move changed nothing: {}",
            ctx()
        );
        history.push(n.canonical(geometry));
    }
}

/// Diagrams fit a mail.
fn check_diagram<G: Game>(pos: &G, ply: usize, ctx: &dyn Fn() -> String) {
    let d = pos.diagram(&View {
        last: None,
        seat: None,
        ply,
        ..View::default()
    });
    assert!(!d.is_empty(), "empty diagram: {}", ctx());
    for line in d.lines() {
        assert!(
            line.chars().count() <= 72,
            "diagram line over 72: {line:?} {}",
            ctx()
        );
    }
}

/// A candidate move plays only when it is listed and names the move it
/// plays; refused, it says why and offers only legal moves.
fn check_candidate<G: Game>(
    pos: &G,
    c: &Notation,
    legal: &HashSet<G::Move>,
    texts: &HashSet<String>,
    ctx: &dyn Fn() -> String,
) {
    match game::resolve(pos, c) {
        Ok(m) => {
            assert!(legal.contains(&m), "unlisted move played: {c:?} {}", ctx());
            let written = pos.notation(m);
            assert!(
                written == *c || written.same_ignoring_capture(&pos.normalize(c.clone())),
                "{c:?} resolved to {written:?}: {}",
                ctx()
            );
        }
        Err(MoveError::Illegal {
            reason,
            alternatives,
            ..
        }) => {
            assert!(
                !reason.trim().is_empty(),
                "empty reason for {c:?}: {}",
                ctx()
            );
            for a in alternatives {
                assert!(
                    texts.contains(&a),
                    "alternative {a} is not legal: {}",
                    ctx()
                );
            }
        }
        Err(MoveError::Ambiguous { candidates }) => {
            assert!(candidates.len() > 1);
            for a in candidates {
                assert!(texts.contains(&a), "candidate {a} is not legal: {}", ctx());
            }
        }
        Err(e) => panic!("unexpected error for {c:?}: {e:?} {}", ctx()),
    }
}

fn random_sq(rng: &mut fastrand::Rng, geometry: pbem_engine::geom::Geometry) -> Sq {
    Sq(rng.u8(..geometry.squares()))
}

fn random_notation(rng: &mut fastrand::Rng, geometry: pbem_engine::geom::Geometry) -> Notation {
    match rng.u8(..10) {
        0 => {
            let n = rng.usize(1..=2);
            Notation::Stones((0..n).map(|_| Point(rng.u8(..geometry.points()))).collect())
        }
        1 => Notation::off(random_sq(rng, geometry)),
        k => {
            let from = random_sq(rng, geometry);
            let len = if k == 2 { rng.usize(2..=4) } else { 1 };
            let to = (0..len).map(|_| random_sq(rng, geometry)).collect();
            Notation::Path(Path {
                lunge: rng.u8(..8) == 0,
                from,
                to,
                off: false,
                capture: rng.bool(),
                count: if rng.u8(..6) == 0 {
                    Some(rng.u8(1..=4))
                } else {
                    None
                },
            })
        }
    }
}

/// Near misses of a legal move: another target, the other capture mark,
/// one step more or less, another count.
fn mutations(n: &Notation, geometry: pbem_engine::geom::Geometry) -> Vec<Notation> {
    let mut out = Vec::new();
    match n {
        Notation::Path(p) => {
            let mut q = p.clone();
            q.capture = !q.capture;
            out.push(Notation::Path(q));
            if let Some(last) = p.to.last() {
                for delta in [1i16, -1, geometry.width as i16, -(geometry.width as i16)] {
                    let t = last.0 as i16 + delta;
                    if t >= 0 && t < geometry.squares() as i16 {
                        let mut q = p.clone();
                        *q.to.last_mut().unwrap() = Sq(t as u8);
                        out.push(Notation::Path(q));
                    }
                }
                let mut q = p.clone();
                q.to.pop();
                if !q.to.is_empty() {
                    out.push(Notation::Path(q));
                }
                let mut q = p.clone();
                q.to.push(p.from);
                out.push(Notation::Path(q));
            }
            for k in 1..=4 {
                let mut q = p.clone();
                q.count = Some(k);
                out.push(Notation::Path(q));
            }
            let mut q = p.clone();
            q.lunge = !q.lunge;
            out.push(Notation::Path(q));
        }
        Notation::Stones(s) => {
            out.push(Notation::Stones(s.iter().rev().copied().collect()));
            out.push(Notation::Stones(s[..1].to_vec()));
            let mut t = s.clone();
            t[0] = Point((t[0].0 + 1) % geometry.points());
            out.push(Notation::Stones(t));
        }
    }
    out
}

pbem_engine::game_tests!(_, G => conformance::<G>());

/// Every game's explanation of any move form, written or built (forms no
/// parser produces too), never panics and always says something.
mod explain_never_panics_and_always_says_something {
    pbem_engine::game_tests!(_, G => crate::support::explain_always_says_something::<G>());
}
