//! Helpers for tests of the engine and of the server (hidden from the
//! docs): random records of any game. A position is written as a picture
//! with each game's `from_diagram` ([`crate::diagram::picture_cells`]).

use crate::game::{self, Game, PerSide, Side};
use crate::record::{Entry, MoveLine, Record};
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
    let result = crate::record::Verdict::of(game::outcome(&pos).map(|e| e.outcome));
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
        result: Some((result, 0)),
        players,
        // Every form of the `[match]` table, for the round trips.
        match_info: match seed % 3 {
            0 => crate::record::MatchInfo::default(),
            1 => crate::record::MatchInfo {
                series: Some(format!("s-{seed}")),
                game: Some(2),
                of: Some(3),
                ..crate::record::MatchInfo::default()
            },
            _ => crate::record::MatchInfo {
                tournament: Some("spring-cup".into()),
                round: Some(4),
                rated: false,
                ..crate::record::MatchInfo::default()
            },
        },
        lines,
    }
}

/// One `#[test]` per game, named after the game (`mad_rooks`, so `cargo
/// test mad_rooks` picks one), running `$body` with `$rules` bound to the
/// game's [`Rules`](crate::rules::Rules) and `$g` to its type: the games
/// come from the list [`with_game!`](crate::with_game) dispatches on
/// ([`__each_game!`](crate::__each_game)), so a new game gets its tests
/// in every suite that uses this.
///
/// ```text
/// pbem_engine::game_tests!(rules, G => check_table::<G>(rules));
/// pbem_engine::game_tests!(_, G => conformance::<G>());
/// pbem_engine::game_tests!(#[ignore = "needs X"] rules, _G => over_x(rules));
/// ```
///
/// Attributes before the pattern go on every one of the tests.
#[doc(hidden)]
#[macro_export]
macro_rules! game_tests {
    ($(#[$attr:meta])* $rules:pat, $g:ident => $body:expr) => {
        $crate::__each_game!(__game_tests! {$(#[$attr])*} ($rules) $g ($body));
    };
}

/// [`game_tests!`]'s tests, one per game of
/// [`__each_game!`](crate::__each_game).
#[doc(hidden)]
#[macro_export]
macro_rules! __game_tests {
    (
        [$attrs:tt ($rules:pat) $g:ident ($body:expr)]
        $($test:ident $variant:ident $module:ident::$game:ident $info:path,)*
    ) => {$(
        $crate::__with_attrs! { $attrs
        #[test]
        fn $test() {
            type $g = $crate::games::$module::$game;
            let rules = $crate::rules::Rules::$variant;
            // The test is named after the game.
            assert_eq!(stringify!($test), rules.slug().replace('-', "_"));
            let $rules = rules;
            $body
        }
        }
    )*};
}

/// `$item` with the attributes of the braced group before it: how
/// [`game_tests!`] puts its caller's attributes on each test (one group
/// of them, repeated per game).
#[doc(hidden)]
#[macro_export]
macro_rules! __with_attrs {
    ({$(#[$attr:meta])*} $($item:tt)*) => {
        $(#[$attr])*
        $($item)*
    };
}
