//! Helpers for tests of the engine and of the server (hidden from the
//! docs): random records of any game. A position is written as a picture
//! with each game's `from_diagram` ([`crate::diagram::picture_cells`]).

use crate::game::{self, Game, PerSide, Side};
use crate::record::{Entry, MoveLine, Record, replay};
use chrono::{Duration, TimeZone, Utc};

/// A finished or long random game of `G` as a full-form record: a move
/// every 37 minutes from 2026-11-20 10:00 UTC, each with a Message-ID.
pub fn random_record<G: Game>(seed: u64, first: Side, plies: usize) -> Record {
    let (_, moves) = game::random_game::<G>(first, seed, plies);
    let mut pos = G::start(first);
    let t0 = Utc.with_ymd_and_hms(2026, 11, 20, 10, 0, 0).unwrap();
    let mut lines = Vec::new();
    for (i, m) in moves.into_iter().enumerate() {
        lines.push(MoveLine {
            line: 0,
            number: Some(i as u32 + 1),
            side: Some(pos.turn()),
            entry: Entry::Move(game::canonical(&pos, m)),
            time: Some((t0 + Duration::minutes(i as i64 * 37)).fixed_offset()),
            message_id: Some(format!("<m{i}.{seed}@mail.example.org>")),
        });
        pos.play_unchecked(m);
    }
    let result = replay::result_word::<G>(game::outcome(&pos).as_ref());
    let players = PerSide::new(
        Some("Alice Example <alice@example.org>".to_string()),
        Some("Bob \"Bobby\" Example <bob@example.org>".to_string()),
    );
    Record {
        file: "t.toml".into(),
        format: Some(1),
        rules: G::RULES,
        id: Some(format!("t-{seed}")),
        created: Some(t0.fixed_offset()),
        first: Some(first),
        result: Some((result.to_string(), 0)),
        players,
        lines,
    }
}
