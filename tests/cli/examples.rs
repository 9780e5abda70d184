//! The example games in each game's folder (`engine/src/games/<folder>/`):
//! one finished game per game, `<slug>.toml`, in the full record form,
//! each passing `pbem validate` (built into pbem as the game's
//! `RulesInfo::example`); and `<slug>-in-play.toml`, one still in play. They double as documentation, so they must stay
//! exactly what the writer produces.

use pbem::record::{self, Record};
use pbem::rules::Rules;
use std::path::Path;

#[test]
fn one_finished_full_form_game_per_game() {
    for rules in Rules::ALL {
        let text = rules.info().example;
        let name = format!("{}.toml", rules.slug());
        let rec = Record::parse(&name, text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(rec.rules, rules);
        assert_eq!(rec.format, Some(1), "{name}: full form");
        assert!(
            rec.id.is_some() && rec.created.is_some(),
            "{name}: full form"
        );
        assert_eq!(rec.players.given().count(), 2, "{name}: both players");
        let checked = pbem::cli::validate_record(&rec).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            checked.result.is_over(),
            "{name}: the example game must be finished"
        );
        assert!(checked.moves >= 10, "{name}: a real game, not a stub");
        assert_eq!(rec.result.map(|(v, _)| v), Some(checked.result));
        // Exactly what the writer produces: canonical moves, fixed layout.
        assert_eq!(
            record::write::to_string(&rec),
            text,
            "{name}: rewrite it with `cargo run --example example_games`"
        );
    }
}

/// `<slug>-in-play.toml`: the opening of the finished example game,
/// still in play, with legal moves to list.
#[test]
fn one_game_in_play_per_game() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for rules in Rules::ALL {
        let path = root.join(rules.example_path(true));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = path.display().to_string();
        let rec = Record::parse(&name, &text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(rec.rules, rules);
        assert_eq!(rec.players.given().count(), 2, "{name}: both players");
        let checked = pbem::cli::validate_record(&rec).unwrap_or_else(|e| panic!("{e}"));
        assert!(!checked.result.is_over(), "{name}: still in play");
        assert!(checked.moves >= 10, "{name}: a real opening");
        let finished = Record::parse("finished", rules.info().example).unwrap();
        assert_eq!(
            rec.moves(),
            finished.moves()[..rec.moves().len()],
            "{name}: the opening of the finished game"
        );
        assert_eq!(
            record::write::to_string(&rec),
            text,
            "{name}: rewrite it with `cargo run --example example_games`"
        );
    }
}
