//! Records (RECORD.md) through the server's checks: garbage never
//! panics, in the reader or in `pbem validate`'s checks. The record
//! format itself is tested by the engine's tests
//! (`engine/tests/engine/records.rs`).

use chrono::{DateTime, Duration, TimeZone, Utc};
use pbem::game::{self, Game, Side};
use pbem::record::{self, Entry, MoveLine, Record};
use std::collections::BTreeMap;

/// A finished or long random game of `G` as a full-form record.
fn random_record<G: Game>(seed: u64, first: Side, plies: usize) -> Record {
    let (_, moves) = game::random_game::<G>(first, seed, plies);
    let mut pos = G::start(first);
    let t0: DateTime<Utc> = Utc.with_ymd_and_hms(2026, 11, 20, 10, 0, 0).unwrap();
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
    let result = record::replay::result_word::<G>(game::outcome(&pos).as_ref());
    let mut players = BTreeMap::new();
    players.insert(
        G::RULES.side_name(Side::A).to_string(),
        "Alice Example <alice@example.org>".to_string(),
    );
    players.insert(
        G::RULES.side_name(Side::B).to_string(),
        "Bob \"Bobby\" Example <bob@example.org>".to_string(),
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

#[test]
fn garbage_never_panics() {
    // Every prefix and many byte flips of a real record: an error or a
    // record, never a panic.
    let rec = random_record::<pbem::games::boom_and_zoom::BoomAndZoom>(1, Side::A, 60);
    let text = record::write::to_string(&rec);
    let mut rng = fastrand::Rng::with_seed(7);
    let mut errors = 0;
    for cut in (0..text.len()).step_by(7) {
        if text.is_char_boundary(cut) && Record::parse("x", &text[..cut]).is_err() {
            errors += 1;
        }
    }
    for _ in 0..3000 {
        let mut bytes = text.clone().into_bytes();
        for _ in 0..rng.usize(1..4) {
            let i = rng.usize(..bytes.len());
            bytes[i] = *b"0123456789-x/.#\n\"\\ abcOFF<>"
                .get(rng.usize(..27))
                .unwrap();
        }
        if let Ok(s) = String::from_utf8(bytes)
            && let Ok(r) = Record::parse("x", &s)
        {
            let _ = pbem::cli::validate_record(&r);
        }
    }
    assert!(errors > 10);
}

