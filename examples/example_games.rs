//! Writes each game's `engine/src/games/<folder>/<slug>.toml`: one complete, finished example game per
//! game, played out by the engine with seeded random moves that favour
//! winning moves and captures, in the full record form; and
//! `<slug>-in-play.toml` beside it: the first [`IN_PLAY`] moves of it, a game
//! still in play (for `pbem moves`, whose examples must print something).
//!
//! `cargo run --example example_games` (rewrites the files; the games are
//! the same every time).

use chrono::{DateTime, Duration, FixedOffset};
use pbem::game::{self, Game, Outcome, PerSide, Side};
use pbem::record::{self, Entry, MoveLine, Record};
use pbem::rules::Rules;

const MAX_PLIES: usize = 400;

/// How many moves the games in play have had.
const IN_PLAY: usize = 12;

/// One playout: winning moves first, then captures half the time.
fn playout<G: Game>(first: Side, seed: u64) -> Option<(Vec<G::Move>, G)> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut pos = G::start(first);
    let mut played = Vec::new();
    let mut moves = Vec::new();
    while played.len() < MAX_PLIES {
        moves.clear();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            return Some((played, pos));
        }
        let me = pos.turn();
        let wins = moves.iter().copied().find(|&m| {
            let mut p = pos.clone();
            p.play_unchecked(m);
            matches!(game::outcome(&p).map(|e| e.outcome), Some(Outcome::Win(s)) if s == me)
        });
        let captures: Vec<G::Move> = moves
            .iter()
            .copied()
            .filter(|&m| match pos.notation(m) {
                pbem::notation::Notation::Path(p) => p.capture || p.off,
                pbem::notation::Notation::Stones(_) => false,
            })
            .collect();
        let m = match wins {
            Some(w) => w,
            None if !captures.is_empty() && rng.bool() => captures[rng.usize(..captures.len())],
            None => moves[rng.usize(..moves.len())],
        };
        pos.play_unchecked(m);
        played.push(m);
    }
    None
}

/// The example game of `G`: finished, or with `in_play` its first
/// [`IN_PLAY`] moves.
fn example<G: Game>(in_play: bool) -> String {
    // The side a challenge makes first (pbem's default for open games).
    let first = G::RULES.fixed_first().unwrap_or(Side::A);
    // The first seed whose game ends decisively; a draw only if none does.
    let (moves, _) = (0..400)
        .filter_map(|seed| playout::<G>(first, seed))
        .find(|(_, end)| matches!(game::outcome(end).map(|e| e.outcome), Some(Outcome::Win(_))))
        .or_else(|| (0..400).find_map(|seed| playout::<G>(first, seed)))
        .expect("no playout finished");
    let moves = if in_play {
        assert!(
            moves.len() > IN_PLAY,
            "{}: a game too short",
            G::RULES.slug()
        );
        &moves[..IN_PLAY]
    } else {
        &moves[..]
    };
    let t0: DateTime<FixedOffset> = DateTime::parse_from_rfc3339("2026-11-01T09:00:00Z").unwrap();
    let mut pos = G::start(first);
    let mut lines = Vec::new();
    let mut t = t0;
    for (i, m) in moves.iter().enumerate() {
        t += Duration::minutes(17 + (i as i64 * 7919) % 1300);
        lines.push(MoveLine {
            line: 0,
            number: Some(i as u32 + 1),
            side: Some(pos.turn()),
            entry: Entry::Move(game::canonical(&pos, *m)),
            time: Some(t),
            message_id: Some(format!("<{}.{}@mail.example.org>", G::RULES.slug(), i + 1)),
        });
        pos.play_unchecked(*m);
    }
    let result = record::Verdict::of(game::outcome(&pos).map(|e| e.outcome));
    let players = PerSide::new(
        Some("Alice Example <alice@example.org>".to_string()),
        Some("Bob Example <bob@example.org>".to_string()),
    );
    record::write::to_string(&Record {
        file: String::new(),
        format: Some(1),
        rules: G::RULES,
        id: Some(if in_play {
            format!("{}-in-play", G::RULES.slug())
        } else {
            G::RULES.slug().to_string()
        }),
        created: Some(t0),
        first: Some(first),
        result: Some((result, 0)),
        players,
        match_info: Default::default(),
        lines,
    })
}

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for in_play in [false, true] {
        for rules in Rules::ALL {
            let text = pbem::with_game!(rules, G => example::<G>(in_play));
            let path = root.join(rules.example_path(in_play));
            pbem::store::files::write_atomic(&path, &text).unwrap();
            println!("wrote {}", path.display());
        }
    }
}
