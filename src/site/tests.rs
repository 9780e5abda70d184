//! The site at more games than the index shows: the index keeps the
//! newest, the lists by game have them all, and an update after one move
//! rewrites that game's page and the lists it is on, nothing else.

use super::*;
use crate::store::Secrets;
use pbem_engine::game::{self, Game, PerSide, Side};
use pbem_engine::record::{Entry, MoveLine};
use pbem_engine::rules::Rules;

const GAMES: usize = pages::INDEX_ROWS + 17;

fn created(g: usize) -> chrono::DateTime<chrono::FixedOffset> {
    chrono::DateTime::parse_from_rfc3339("2026-03-01T00:00:00+00:00").unwrap()
        + chrono::Duration::hours(g as i64)
}

/// A game of `rules` just made between players `a` and `b`: no move.
fn record(g: usize, rules: Rules) -> Record {
    Record {
        file: format!("t{g:04}.toml"),
        format: Some(1),
        rules,
        id: Some(format!("t{g:04}")),
        created: Some(created(g)),
        first: Some(rules.fixed_first().unwrap_or(Side::A)),
        result: Some(("*".into(), 0)),
        players: PerSide::new(
            Some(format!("P{} <p{}@example.org>", g % 40, g % 40)),
            Some(format!("Q{g} <q{g}@example.org>")),
        ),
        match_info: Default::default(),
        lines: Vec::new(),
    }
}

fn first_move<G: Game>(first: Side) -> String {
    let pos = G::start(first);
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    game::canonical(&pos, moves[0])
}

fn count(html: &str) -> usize {
    html.matches("<tr><td>").count()
}

#[test]
fn the_index_shows_the_newest_and_one_move_rewrites_its_lists_only() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("data")).unwrap();
    for g in 0..GAMES {
        let rec = record(g, Rules::ALL[g % Rules::ALL.len()]);
        let id = rec.id.clone().unwrap();
        store
            .write_game(&id, &pbem_engine::record::write::to_string(&rec))
            .unwrap();
        store
            .write_secrets(&id, rec.rules, &Secrets::default())
            .unwrap();
    }
    let www = dir.path().join("www");
    let site = |www: &Path| build(&store, www, &Options::default(), &mut |_, _| {}).unwrap();
    let first = site(&www);
    assert_eq!((first.games, first.remade), (GAMES, GAMES));
    let index = std::fs::read_to_string(www.join("index.html")).unwrap();
    assert_eq!(count(&index), pages::INDEX_ROWS, "the newest only");
    assert!(
        index.contains(&format!("The newest {} of {GAMES}", pages::INDEX_ROWS)),
        "{index}"
    );
    // The newest is there, the oldest is not: it is on its game's list,
    // and on the next page of the games in play, which the index links.
    assert!(index.contains(&format!("t{:04}.html", GAMES - 1)));
    assert!(!index.contains("t0000.html"));
    assert!(index.contains("<a href=\"in-play_2.html\">2</a>"), "{index}");
    let rest = std::fs::read_to_string(www.join("in-play_2.html")).unwrap();
    assert_eq!(count(&rest), GAMES - pages::INDEX_ROWS);
    assert!(rest.contains("t0000.html"), "{rest}");
    assert!(rest.contains("<a href=\"index.html#in-play\">1</a>"), "{rest}");
    let listed: usize = Rules::ALL
        .iter()
        .map(|r| {
            let page = www.join(format!("by-game/{}.html", r.slug()));
            count(&std::fs::read_to_string(page).unwrap())
        })
        .sum();
    assert_eq!(listed, GAMES, "every game on its game's list");

    let again = site(&www);
    assert_eq!((again.remade, again.written), (0, 0), "{again:?}");
    // A list page gone from the folder is made again, alone.
    let gone = std::fs::read_dir(www.join("players"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    std::fs::remove_file(&gone).unwrap();
    let again = site(&www);
    assert_eq!((again.remade, again.written), (0, 1), "{again:?}");
    assert!(gone.is_file());

    // One move in the oldest game: it comes first on the index.
    let mut rec = record(0, Rules::ALL[0]);
    let first_side = rec.first.unwrap();
    let mv = pbem_engine::with_game!(rec.rules, G => first_move::<G>(first_side));
    rec.lines.push(MoveLine {
        line: 0,
        number: Some(1),
        side: Some(first_side),
        entry: Entry::Move(mv),
        time: Some(created(GAMES + 1)),
        message_id: None,
    });
    store
        .write_game("t0000", &pbem_engine::record::write::to_string(&rec))
        .unwrap();
    let after = site(&www);
    // Its page, the index, its game's list, its two players' pages, and
    // the second page of the games in play, which it left.
    assert_eq!((after.remade, after.written), (1, 6), "{after:?}");
    let rest = std::fs::read_to_string(www.join("in-play_2.html")).unwrap();
    assert!(!rest.contains("t0000.html"), "{rest}");
    let index = std::fs::read_to_string(www.join("index.html")).unwrap();
    assert!(
        index.contains("t0000.html"),
        "the game just played is on the index"
    );
    // The pages are the same as a build from nothing (with the data
    // folder's key of the players' pages) would make.
    let fresh = dir.path().join("fresh");
    site(&fresh);
    let list = format!("by-game/{}.html", Rules::ALL[0].slug());
    for page in ["index.html", &list, "games/t0000.html"] {
        assert_eq!(
            std::fs::read_to_string(www.join(page)).unwrap(),
            std::fs::read_to_string(fresh.join(page)).unwrap(),
            "{page}"
        );
    }
}

#[test]
fn a_players_page_name_is_keyed() {
    let a = super::player_page("k1", "Ann <ann@example.org>");
    assert_eq!(a, super::player_page("k1", "ann@example.org"), "by address");
    assert_eq!(a.len(), 24);
    assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
    assert_ne!(
        a,
        super::player_page("k2", "ann@example.org"),
        "another key"
    );
    assert_ne!(a, super::player_page("k1", "bob@example.org"));
}
