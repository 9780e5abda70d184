//! The rules a player reads (`pbem rules GAME`, the `rules GAME` mail):
//! each game's `<slug>.md` in its folder `engine/src/games/<game>/`,
//! checked against the engine.
//!
//! - Its headings are exactly the sections the game's refusals may cite
//!   (the game's `Section` enum), so every citation points at a section
//!   that exists, and every section (every ruling among them) is one the
//!   code knows by name.
//! - Its title is the game's name and byline from the game's facts.
//! - Its setup board is the one pbem draws for the starting position.
//!   `PBEM_BLESS=1 cargo test -p pbem-engine rules_docs` rewrites the
//!   boards after a change to the diagrams.
//!
//! The rulings themselves (what pbem decides where the rule texts are
//! silent) are each a `### Ruling: ...` section; the engine's behaviour
//! under each is tested in the game's module of `games/`.
//! What needs the server (help texts, mail commands) is in the root
//! package's `tests/cli/rules_docs.rs`.

use pbem_engine::game::{self, Game, Side, View};
use pbem_engine::play;
use pbem_engine::rules::Rules;
use std::path::PathBuf;

/// The rules text of `rules`: `<slug>.md` in the game's folder.
fn doc_path(rules: Rules) -> PathBuf {
    let games = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/games");
    let file = format!("{}.md", rules.slug());
    std::fs::read_dir(&games)
        .unwrap()
        .map(|e| e.unwrap().path().join(&file))
        .find(|p| p.exists())
        .unwrap_or_else(|| panic!("no {file} in a folder of {}", games.display()))
}

/// The `##` and `###` headings of a rules text, in order.
fn headings(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|l| l.strip_prefix("### ").or_else(|| l.strip_prefix("## ")))
        .collect()
}

/// The board pbem draws at the start of `rules`.
fn setup_board(rules: Rules) -> String {
    pbem_engine::with_game!(rules, G => {
        G::start(game::first_sides::<G>()[0]).diagram(&View::default())
    })
}

/// The text of the first fenced block after `## Setup`, and where it
/// starts and ends (byte offsets of its contents).
fn setup_block(text: &str) -> Option<(usize, usize)> {
    let setup = text.find("\n## Setup\n")?;
    let open = setup + text[setup..].find("\n```text\n")? + "\n```text\n".len();
    let close = open + text[open..].find("```\n")?;
    Some((open, close))
}

#[test]
fn every_section_a_refusal_cites_is_a_heading_and_every_heading_a_section() {
    for rules in Rules::ALL {
        let i = rules.info();
        assert_eq!(
            headings(i.text),
            i.sections,
            "{rules}: the headings of {rules}.md and the game's Section enum differ"
        );
        assert!(i.sections.contains(&pbem_engine::rules::SETUP), "{rules}");
        for must in ["The board", "Rulings", "Ruling: no legal move", "Notation"] {
            assert!(
                i.sections.iter().any(|s| s.starts_with(must)),
                "{rules}: no section {must}"
            );
        }
        // Every ruling sits under "## Rulings".
        let rulings = i.text.find("\n## Rulings\n").expect("a Rulings section");
        for line in i.text.lines().filter(|l| l.starts_with("### ")) {
            assert!(
                line.starts_with("### Ruling: ") && i.text.find(line) > Some(rulings),
                "{rules}: {line:?} is not a ruling under Rulings"
            );
        }
    }
}

#[test]
fn the_title_is_the_games_name_and_byline() {
    for rules in Rules::ALL {
        let i = rules.info();
        let first = i.text.lines().next().unwrap_or_default();
        assert_eq!(first, format!("# {} {}", i.name, i.credit), "{rules}");
        assert!(
            rules
                .rules_text()
                .starts_with(&format!("{} {}\n===", i.name, i.credit))
        );
    }
    assert_eq!(
        Rules::ToroidalCheckers.byline().to_string(),
        "after T. Robison"
    );
    assert_eq!(Rules::Embed.byline().to_string(), "by Ty Bomba");
}

#[test]
fn the_setup_board_is_the_one_pbem_draws() {
    let bless = std::env::var_os("PBEM_BLESS").is_some();
    let mut stale = Vec::new();
    for rules in Rules::ALL {
        let path = doc_path(rules);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            rules.info().text,
            "{rules}: the binary's text is the file's"
        );
        let (open, close) = setup_block(&text)
            .unwrap_or_else(|| panic!("{rules}: no ```text block after ## Setup"));
        let board = setup_board(rules);
        if text[open..close] != board {
            if bless {
                let mut new = text.clone();
                new.replace_range(open..close, &board);
                std::fs::write(&path, new).unwrap();
            }
            stale.push(rules.slug());
            continue;
        }
        // What the player gets has the board, without the fences.
        let shown = rules.rules_text();
        assert!(shown.contains(&board), "{rules}");
        assert!(!shown.contains("```"), "{rules}");
    }
    assert!(
        bless || stale.is_empty(),
        "the setup boards of {stale:?} differ from what pbem draws; \
         PBEM_BLESS=1 cargo test -p pbem-engine rules_docs rewrites them"
    );
}

/// A refusal by a rule names the section of `pbem rules GAME` it rests
/// on, and that section exists.
fn cited<G: Game>(pos: &G, text: &str) -> (String, &'static str) {
    let e = play::parse_move(pos, text).expect_err(text);
    let cite = e
        .cite()
        .unwrap_or_else(|| panic!("{text}: no citation: {e}"));
    assert_eq!(cite.rules, G::RULES);
    assert!(G::RULES.info().sections.contains(&cite.section));
    let said = e.to_string();
    assert!(
        said.contains(&format!(
            " (see `pbem rules {}`, section {})",
            G::RULES.slug(),
            cite.section
        )),
        "{said}"
    );
    (said, cite.section)
}

#[test]
fn refusals_cite_the_section_that_says_so() {
    use pbem_engine::games::*;
    let bz = boom_and_zoom::BoomAndZoom::start(Side::A);
    assert_eq!(cited(&bz, "1-33").1, "Zooming");
    assert_eq!(cited(&bz, "1-off").1, "Zooming off");
    let dt = dragons_teeth::DragonsTeeth::start(Side::A);
    assert!(cited(&dt, "17-25:1").0.contains("never splits"));
    assert_eq!(cited(&dt, "17-25:1").1, "Teeth");
    assert_eq!(cited(&dt, "17-off").1, "Moving off");
    let em = embed::Embed::start(Side::A);
    assert_eq!(cited(&em, "20-28").1, "Setup");
    let mad = mad::Mad::start(Side::A);
    assert_eq!(cited(&mad, "L9-41").1, "Lunges");
    assert_eq!(cited(&mad, "9-25").1, "Simple moves");
    let rooks = mad_rooks::MadRooks::start(Side::A);
    assert_eq!(cited(&rooks, "2-11").1, "Killing");
    let coin = guerrilla::Guerrilla::start(Side::A);
    assert_eq!(cited(&coin, "27-36").1, "The guerrilla's turn");
    let tor = toroidal::Toroidal::start(Side::A);
    assert_eq!(cited(&tor, "18-11").1, "Steps");
}

/// Random positions of every game, and the moves a player might try in
/// them: every refusal by a rule cites a section of that game's rules.
#[test]
fn every_refusal_in_random_games_cites_a_section_of_its_game() {
    fn check<G: Game>() {
        let g = G::RULES.geometry();
        let n = g.squares() as u32;
        let mut cited = std::collections::BTreeSet::new();
        for seed in 0..12 {
            let (pos, _) =
                game::random_game::<G>(game::first_sides::<G>()[0], seed, 20 + seed as usize % 2);
            if game::outcome(&pos).is_some() {
                continue;
            }
            let mut rng = fastrand::Rng::with_seed(seed);
            for _ in 0..150 {
                let a = rng.u32(1..=n);
                let b = rng.u32(1..=n);
                let text = match rng.u8(0..7) {
                    6 => format!("{a}/{},{b}/{}", a + 9, b + 9),
                    0 => format!("{a}-{b}"),
                    1 => format!("{a}x{b}"),
                    2 => format!("{a}-off"),
                    3 => format!("L{a}-{b}"),
                    4 => format!("{a}-{b}:2"),
                    _ => format!("{a}x{b}x{}", rng.u32(1..=n)),
                };
                if let Err(e) = play::parse_move(&pos, &text)
                    && let Some(c) = e.cite()
                {
                    assert!(
                        G::RULES.info().sections.contains(&c.section),
                        "{}: {text}: {}",
                        G::RULES,
                        c.section
                    );
                    cited.insert(c.section);
                }
            }
        }
        assert!(cited.len() >= 3, "{}: only {cited:?}", G::RULES);
    }
    for rules in Rules::ALL {
        pbem_engine::with_game!(rules, G => check::<G>());
    }
}

/// Every ruling of the rules texts, and the test that holds the engine
/// to it: the rulings a player reads are the ones pbem applies.
/// "No legal move loses" is applied once for every game, by
/// `game::outcome`; its tests are in the games where a side can run out
/// of moves in a short position.
const RULINGS: &[(&str, &str, &str, &str)] = &[
    (
        "boom-and-zoom",
        "Ruling: a single checker",
        "games/boom_and_zoom",
        "boom_takes_the_top_checker_and_a_single_checker_is_removed",
    ),
    (
        "boom-and-zoom",
        "Ruling: the far corner",
        "games/boom_and_zoom",
        "a_diagonal_may_leave_through_the_far_corner",
    ),
    (
        "boom-and-zoom",
        "Ruling: no legal move",
        "games/dragons_teeth",
        "a_side_with_no_legal_move_loses",
    ),
    (
        "dragons-teeth",
        "Ruling: the setup",
        "games/dragons_teeth",
        "setup_follows_the_ruling",
    ),
    (
        "dragons-teeth",
        "Ruling: the far corner",
        "games/dragons_teeth",
        "moving_off_straight_or_diagonally_forward_with_the_far_corner",
    ),
    (
        "dragons-teeth",
        "Ruling: no legal move",
        "games/dragons_teeth",
        "a_side_with_no_legal_move_loses",
    ),
    (
        "embed",
        "Ruling: the setup",
        "games/embed",
        "setup_follows_the_ruling",
    ),
    (
        "embed",
        "Ruling: edges and corners",
        "games/embed",
        "embedding_counts_the_board_squares_around_the_boss",
    ),
    (
        "embed",
        "Ruling: the order of the checks",
        "games/embed",
        "the_opponents_embedding_beats_the_movers_own",
    ),
    (
        "embed",
        "Ruling: the order of the checks",
        "games/embed",
        "entry_comes_first",
    ),
    (
        "embed",
        "Ruling: no legal move",
        "games/mad_rooks",
        "a_side_with_no_legal_move_loses",
    ),
    (
        "mad",
        "Ruling: no checkers left",
        "games/mad",
        "both_sides_without_checkers_is_a_draw",
    ),
    (
        "mad",
        "Ruling: no checkers left",
        "games/mad",
        "a_side_without_checkers_loses_whoever_moved",
    ),
    (
        "mad",
        "Ruling: no legal move",
        "games/guerrilla_checkers",
        "a_guerrilla_with_no_legal_placement_loses",
    ),
    (
        "mad-rooks",
        "Ruling: the setup",
        "games/mad_rooks",
        "rooks_setup_is_a_full_checkerboard_with_blue_on_square_1",
    ),
    (
        "mad-rooks",
        "Ruling: judging an engage",
        "games/mad_rooks",
        "an_engage_must_end_where_the_checker_could_kill",
    ),
    (
        "mad-rooks",
        "Ruling: no legal move",
        "games/mad_rooks",
        "a_side_with_no_legal_move_loses",
    ),
    (
        "mad-bishops",
        "Ruling: the setup",
        "games/mad_rooks",
        "bishops_setup_fills_the_odd_squares_blue_on_odd_rows",
    ),
    (
        "mad-bishops",
        "Ruling: judging an engage",
        "games/mad_rooks",
        "bishops_kill_and_engage_along_diagonals_only",
    ),
    (
        "mad-bishops",
        "Ruling: no legal move",
        "games/mad_rooks",
        "a_side_with_no_legal_move_loses",
    ),
    (
        "guerrilla-checkers",
        "Ruling: point names",
        "games/guerrilla_checkers",
        "points_are_named_by_the_top_left_bottom_right_squares_and_28_35_is_accepted",
    ),
    (
        "guerrilla-checkers",
        "Ruling: a winning first stone",
        "games/guerrilla_checkers",
        "a_first_stone_that_removes_the_last_coin_piece_wins_alone",
    ),
    (
        "guerrilla-checkers",
        "Ruling: a first stone needs a second",
        "games/guerrilla_checkers",
        "a_first_stone_without_a_free_point_beside_it_is_no_move",
    ),
    (
        "guerrilla-checkers",
        "Ruling: an empty supply",
        "games/guerrilla_checkers",
        "a_guerrilla_with_an_empty_supply_at_the_start_of_its_turn_loses",
    ),
    (
        "guerrilla-checkers",
        "Ruling: both orders",
        "games/guerrilla_checkers",
        "the_first_turn_places_a_pair_anywhere_and_both_orders_are_listed",
    ),
    (
        "guerrilla-checkers",
        "Ruling: no legal move",
        "games/guerrilla_checkers",
        "a_guerrilla_with_no_legal_placement_loses",
    ),
    (
        "toroidal-checkers",
        "Ruling: chains",
        "games/toroidal_checkers",
        "every_prefix_is_a_move_and_a_chain_may_return_to_its_start",
    ),
    (
        "toroidal-checkers",
        "Ruling: a jumped king",
        "games/toroidal_checkers",
        "a_jumped_king_only_lands_on_an_empty_square",
    ),
    (
        "toroidal-checkers",
        "Ruling: jumped pieces move at once",
        "games/toroidal_checkers",
        "jumped_pieces_move_at_once_in_chain_order",
    ),
    (
        "toroidal-checkers",
        "Ruling: the forty-move draw",
        "games/toroidal_checkers",
        "forty_quiet_moves_draw_at_once_and_the_count_runs_from_the_first_move",
    ),
    (
        "toroidal-checkers",
        "Ruling: endless chains",
        "games/toroidal_checkers",
        "chains_are_short_and_never_repeat",
    ),
    (
        "toroidal-checkers",
        "Ruling: no legal move",
        "games/toroidal_checkers",
        "heaven_loss_comes_before_the_draw_and_the_draw_before_no_legal_move",
    ),
];

/// The text of the test module `path`: `path.rs`, or every `.rs` file in
/// the folder `path/` when the game's tests are split by concept.
fn sources(path: &std::path::Path) -> String {
    let file = path.with_extension("rs");
    if file.exists() {
        return std::fs::read_to_string(file).unwrap();
    }
    let mut text = String::new();
    for entry in std::fs::read_dir(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())) {
        let p = entry.unwrap().path();
        if p.extension().is_some_and(|e| e == "rs") {
            text.push_str(&std::fs::read_to_string(p).unwrap());
        }
    }
    text
}

#[test]
fn every_ruling_written_is_one_the_engine_is_tested_to_apply() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for rules in Rules::ALL {
        for section in rules.info().sections {
            if section.starts_with("Ruling:") {
                assert!(
                    RULINGS
                        .iter()
                        .any(|(g, s, ..)| *g == rules.slug() && s == section),
                    "{rules}: {section:?} has no test in RULINGS"
                );
            }
        }
    }
    for (slug, section, file, test) in RULINGS {
        let rules: Rules = slug.parse().unwrap();
        assert!(
            rules.info().sections.contains(section),
            "{slug}: no section {section:?}"
        );
        let source = sources(&root.join("tests/engine").join(file));
        assert!(
            source.contains(&format!("#[test]\nfn {test}()")),
            "{slug}, {section}: no test {file}::{test}"
        );
    }
}
