//! The bot, in every game: each move it chooses is legal (on
//! positions from random games), a node budget and a seed give the same
//! move every time, it beats a random player in a short match, and it
//! takes a win in one when there is one. `suggest` answers at the end of
//! a record, and says when the game is over.

use pbem_engine::bot::arena::{self, MatchSpec, Player};
use pbem_engine::bot::{self, Budget, Evaluate, Level, Limits, SuggestError};
use pbem_engine::game::{self, Game, Outcome};
use pbem_engine::testing;

/// Small enough for a debug build, large enough for a few plies.
const NODES: u64 = 3_000;

fn limits(nodes: u64) -> Limits {
    Limits {
        think: Budget::Nodes(nodes),
        level: Level::MAX,
    }
}

/// Positions from random games of `G`: every fifth ply of a few games,
/// and each game's last position (often finished).
fn positions<G: Game>() -> Vec<G> {
    let mut out = Vec::new();
    for first in game::first_sides::<G>() {
        for seed in 0..4 {
            let (_, moves) = game::random_game::<G>(first, seed, 300);
            let mut pos = G::start(first);
            for (i, m) in moves.into_iter().enumerate() {
                if i % 5 == 0 {
                    out.push(pos.clone());
                }
                pos.play_unchecked(m);
            }
            out.push(pos);
        }
    }
    out
}

fn legal_moves_only<G: Evaluate>() {
    for (i, pos) in positions::<G>().iter().enumerate() {
        let mut legal = Vec::new();
        pos.legal_moves(&mut legal);
        let choice = bot::choose(pos, &limits(NODES), i as u64);
        match choice {
            None => assert!(
                game::outcome(pos).is_some(),
                "{}: no move in a game in play: {pos:?}",
                G::RULES
            ),
            Some(c) => {
                assert!(
                    legal.contains(&c.mv),
                    "{}: {:?} is not legal in {pos:?}",
                    G::RULES,
                    c.mv
                );
                // Its notation resolves to the same move.
                let text = game::canonical(pos, c.mv);
                let n = pbem_engine::notation::parse(&text, G::RULES.geometry()).unwrap();
                assert_eq!(game::resolve(pos, &n), Ok(c.mv), "{}: {text}", G::RULES);
                if legal.len() == 1 {
                    assert_eq!((c.depth, c.nodes), (0, 0), "the only move, unsearched");
                } else {
                    assert!(c.depth >= 1 && c.nodes >= 1, "{c:?}");
                    assert!(c.nodes <= NODES, "the node budget holds: {c:?}");
                }
            }
        }
    }
}

fn deterministic<G: Evaluate>() {
    for (i, pos) in positions::<G>().iter().enumerate().step_by(3) {
        let a = bot::choose(pos, &limits(NODES), i as u64);
        let b = bot::choose(pos, &limits(NODES), i as u64);
        assert_eq!(
            a.map(|c| (c.mv, c.score, c.depth, c.nodes)),
            b.map(|c| (c.mv, c.score, c.depth, c.nodes)),
            "{}: the same seed and node budget, the same search",
            G::RULES
        );
    }
}

fn beats_random<G: Evaluate>() {
    let spec = MatchSpec {
        players: [Player::Bot(Level::MAX), Player::Random],
        games: 4,
        think: Budget::Nodes(NODES),
        seed: 18,
        max_plies: arena::MAX_PLIES,
        threads: 1,
    };
    let score = arena::play_match::<G>(&spec, &|_, _| {});
    assert_eq!(
        (score.wins, score.games()),
        (4, 4),
        "{}: the bot wins every game against random: {score:?}",
        G::RULES
    );
    assert!(score.spent[0].moves > 0 && score.spent[0].nodes > 0);
}

/// Positions where the side to move has a move that wins at once: the
/// last position before a random game's winning move.
fn win_in_one<G: Game>() -> Vec<G> {
    let mut out = Vec::new();
    for seed in 0..200 {
        let first = game::first_sides::<G>()[seed as usize % game::first_sides::<G>().len()];
        let (end, moves) = game::random_game::<G>(first, seed, 400);
        let Some(Outcome::Win(w)) = game::outcome(&end).map(|e| e.outcome) else {
            continue;
        };
        let mut pos = G::start(first);
        for &m in &moves[..moves.len() - 1] {
            pos.play_unchecked(m);
        }
        if pos.turn() == w {
            out.push(pos);
        }
        if out.len() == 5 {
            break;
        }
    }
    out
}

fn wins_at_once<G: Game>(pos: &G, mv: G::Move) -> bool {
    let mut next = pos.clone();
    next.play_unchecked(mv);
    game::outcome(&next).map(|e| e.outcome) == Some(Outcome::Win(pos.turn()))
}

fn takes_a_win_in_one<G: Evaluate>() {
    let found = win_in_one::<G>();
    assert!(
        !found.is_empty(),
        "{}: no random game ended in a win to test with",
        G::RULES
    );
    for pos in found {
        let c = bot::choose(&pos, &limits(NODES), 7).expect("a game in play");
        assert!(
            wins_at_once(&pos, c.mv),
            "{}: {} does not win at once in {pos:?}",
            G::RULES,
            game::canonical(&pos, c.mv)
        );
        if c.depth > 0 {
            assert_eq!(c.proven().as_deref(), Some("wins in 1"), "{c:?}");
        }
    }
}

fn suggests_at_the_end_of_a_record<G: Evaluate>() {
    for seed in 0..6 {
        let first = game::first_sides::<G>()[0];
        let plies = [0, 1, 7, 20, 45, 400][seed as usize];
        let record = testing::random_record::<G>(seed, first, plies);
        let replayed = pbem_engine::record::replay::<G>(&record).unwrap();
        let pos = replayed.position();
        match bot::suggest(&record, &limits(500), seed) {
            Ok(s) => {
                let listed: Vec<String> = game::listed_moves(pos)
                    .into_iter()
                    .map(|(_, n)| n.canonical(G::RULES.geometry()))
                    .collect();
                assert!(listed.contains(&s.text), "{}: {}", G::RULES, s.text);
                assert_eq!(s.legal, listed.len());
                assert_eq!(s.side, game::side_name::<G>(pos.turn()));
            }
            Err(SuggestError::Over(end)) => {
                assert_eq!(Some(end), game::outcome(pos), "{}", G::RULES);
            }
            Err(e) => panic!("{}: {e}", G::RULES),
        }
    }
}

mod legal {
    pbem_engine::game_tests!(_, G => super::legal_moves_only::<G>());
}
mod determinism {
    pbem_engine::game_tests!(_, G => super::deterministic::<G>());
}
mod against_random {
    pbem_engine::game_tests!(_, G => super::beats_random::<G>());
}
mod win_in_one {
    pbem_engine::game_tests!(_, G => super::takes_a_win_in_one::<G>());
}
mod suggest {
    pbem_engine::game_tests!(_, G => super::suggests_at_the_end_of_a_record::<G>());
}

#[test]
fn levels_share_the_budget() {
    let l = |n: u8, think| Limits {
        think,
        level: Level::new(n).unwrap(),
    };
    let ms = |m| Budget::Time(std::time::Duration::from_millis(m));
    assert_eq!(l(3, ms(900)).budget(), ms(900));
    assert_eq!(l(2, ms(900)).budget(), ms(300));
    assert_eq!(l(1, ms(900)).budget(), ms(100));
    assert_eq!(l(1, Budget::Nodes(90)).budget(), Budget::Nodes(10));
    assert_eq!(Level::new(0), None);
    assert_eq!(Level::new(4), None);
    assert_eq!("2".parse::<Level>().map(|l| l.number()), Ok(2));
    let bad = "4".parse::<Level>().unwrap_err().to_string();
    assert_eq!(bad, "\"4\" is no bot level (the levels are 1, 2 and 3)");
}

#[test]
fn players_are_named() {
    for (text, p) in [
        ("1", Player::Bot(Level::MIN)),
        ("bot3", Player::Bot(Level::MAX)),
        ("bot", Player::Bot(Level::MAX)),
        ("UCT", Player::Uct),
        ("random", Player::Random),
    ] {
        assert_eq!(text.parse::<Player>(), Ok(p), "{text}");
    }
    let e = "alphazero".parse::<Player>().unwrap_err().to_string();
    assert!(
        e.starts_with("\"alphazero\" is no player (try 1, 2 or 3"),
        "{e}"
    );
    assert_eq!(Player::Bot(Level::MAX).to_string(), "bot3");
}
