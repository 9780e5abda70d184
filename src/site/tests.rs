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
        result: Some((crate::record::Verdict::Unfinished, 0)),
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
    assert!(
        index.contains("<a href=\"in-play_2.html\">2</a>"),
        "{index}"
    );
    let rest = std::fs::read_to_string(www.join("in-play_2.html")).unwrap();
    assert_eq!(count(&rest), GAMES - pages::INDEX_ROWS);
    assert!(rest.contains("t0000.html"), "{rest}");
    assert!(
        rest.contains("<a href=\"index.html#in-play\">1</a>"),
        "{rest}"
    );
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

/// A site's data folder and its folder, and a build of it.
struct Site {
    dir: tempfile::TempDir,
    store: Store,
}

impl Site {
    fn new() -> Site {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("data")).unwrap();
        Site { dir, store }
    }

    fn www(&self) -> PathBuf {
        self.dir.path().join("www")
    }

    fn build(&self) -> Built {
        build(
            &self.store,
            &self.www(),
            &Options::default(),
            &mut |_, _| {},
        )
        .unwrap()
    }

    fn write(&self, rec: &Record) {
        let id = rec.id.clone().unwrap();
        let text = pbem_engine::record::write::to_string(rec);
        self.store.write_game(&id, &text).unwrap();
    }

    fn page(&self, path: &str) -> String {
        std::fs::read_to_string(self.www().join(path)).unwrap_or_default()
    }
}

/// `plies` moves of a game of Embed that goes on: random legal moves,
/// none that ends it, quiet ones where there are.
fn long_moves(plies: usize) -> Vec<String> {
    use pbem_engine::games::embed::Embed;
    let mut rng = fastrand::Rng::with_seed(7);
    let mut pos = Embed::start(Side::A);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < plies {
        moves.clear();
        pos.legal_moves(&mut moves);
        rng.shuffle(&mut moves);
        let goes_on = |m: &&_| {
            let mut next = pos.clone();
            next.play_unchecked(**m);
            game::outcome(&next).is_none()
        };
        let quiet = |m: &&_| !game::canonical(&pos, **m).contains('x');
        let m = *moves
            .iter()
            .filter(goes_on)
            .find(quiet)
            .or_else(|| moves.iter().find(goes_on))
            .expect("a move that goes on");
        out.push(game::canonical(&pos, m));
        pos.play_unchecked(m);
    }
    out
}

/// Game `id` of Embed with `moves` played.
fn long_record(id: &str, moves: &[String]) -> Record {
    let mut rec = record(0, Rules::Embed);
    rec.id = Some(id.into());
    rec.first = Some(Side::A);
    rec.lines = moves
        .iter()
        .enumerate()
        .map(|(i, m)| MoveLine {
            line: 0,
            number: Some(i as u32 + 1),
            side: None,
            entry: Entry::Move(m.clone()),
            time: Some(created(i)),
            message_id: None,
        })
        .collect();
    rec
}

fn plies_shown(page: &str) -> Vec<usize> {
    page.split("<g id=\"p")
        .skip(1)
        .filter_map(|s| s.split_once("\" class=\"ply\"")?.0.parse().ok())
        .collect()
}

#[test]
fn a_long_game_is_on_pages_of_200_moves_and_one_move_redraws_its_ends() {
    let site = Site::new();
    let moves = long_moves(450);
    site.write(&long_record("long", &moves));
    let first = site.build();
    assert_eq!(first.remade, 1);
    let pages = ["games/long.html", "games/long_2.html", "games/long_3.html"];
    for (k, path) in pages.iter().enumerate() {
        let page = site.page(path);
        assert!(page.len() < 1_000_000, "{path}: {} bytes", page.len());
        // The board before its first move and after each of its moves,
        // named by the ply as on every page.
        let (from, to) = (k * 200, (k * 200 + 200).min(450));
        assert_eq!(
            plies_shown(&page),
            (from..=to).collect::<Vec<_>>(),
            "{path}"
        );
        assert_eq!(page.matches("<li><a href=\"#p").count(), to - from);
        assert!(page.contains(&format!("data-ply=\"{to}\"")), "{path}");
        assert!(page.contains(&format!("max=\"{to}\"")), "{path}");
        // Links to the other pages.
        for (j, other) in pages.iter().enumerate() {
            let link = format!("href=\"{}", other.trim_start_matches("games/"));
            assert_eq!(page.contains(&link), j != k, "{path} to {other}");
        }
    }
    let middle = site.page(pages[1]);
    assert!(middle.contains("<ol class=\"moves\" id=\"moves\" start=\"201\">"));
    assert!(
        middle.contains("href=\"long.html#p199\" rel=\"prev\""),
        "{middle}"
    );
    assert!(
        middle.contains("href=\"long_3.html#p401\" rel=\"next\""),
        "{middle}"
    );
    // How the game stands: on the first and last pages, which change with
    // every move; the pages between do not.
    assert!(site.page(pages[0]).contains("after 450 moves"));
    assert!(site.page(pages[2]).contains("after 450 moves"));
    assert!(!middle.contains("after 450 moves"), "{middle}");

    let mut longer = moves.clone();
    longer.extend(long_moves(451).pop());
    site.write(&long_record("long", &longer));
    let after = site.build();
    // Its first and last pages, the index, its game's list, its players'.
    assert_eq!((after.remade, after.written), (1, 6), "{after:?}");
    assert_eq!(site.page(pages[1]), middle);
    assert!(site.page(pages[2]).contains("after 451 moves"));

    // Shorter again (a record mended by hand): the pages it no longer
    // fills go.
    site.write(&long_record("long", &moves[..150]));
    site.build();
    assert!(site.page(pages[0]).contains("after 150 moves"));
    assert!(!site.www().join(pages[1]).exists());
    assert!(!site.www().join(pages[2]).exists());
}

#[test]
fn a_players_list_is_on_pages_of_200_games() {
    let site = Site::new();
    for g in 0..450 {
        let mut rec = record(g, Rules::Mad);
        // One player in every game.
        rec.players[Side::A] = Some("Ann <ann@example.org>".into());
        site.write(&rec);
    }
    site.build();
    let key = std::fs::read_to_string(key::path(&site.store)).unwrap();
    let ann = player_page(key.trim(), "ann@example.org");
    let rows: Vec<usize> = ["", "_2", "_3"]
        .iter()
        .map(|k| count(&site.page(&format!("players/{ann}{k}.html"))))
        .collect();
    assert_eq!(rows, [200, 200, 50]);
    let by_game: Vec<usize> = ["", "_2", "_3"]
        .iter()
        .map(|k| count(&site.page(&format!("by-game/mad{k}.html"))))
        .collect();
    assert_eq!(by_game, [200, 200, 50]);
    assert!(
        site.page(&format!("players/{ann}_3.html"))
            .contains(&format!("<a href=\"{ann}_2.html\">2</a>"))
    );
    assert!(!site.www().join(format!("players/{ann}_4.html")).exists());
}

/// A round robin of M.A.D. called `name` between `players`, its rounds
/// so far `played`, made on 1 March 2026.
fn round_robin(
    name: &str,
    players: Vec<String>,
    played: Vec<crate::store::league::RoundFile>,
) -> crate::store::league::TournamentFile {
    crate::store::league::TournamentFile {
        name: name.into(),
        rules: crate::rules::Rules::Mad,
        format: pbem_league::pairing::Format::RoundRobin,
        rounds: 0,
        clock: None,
        rated: false,
        created: "2026-03-01T00:00:00Z".parse().unwrap(),
        begins: "2026-03-01T00:00:00Z".parse().unwrap(),
        signup: false,
        drop_after_timeouts: 0,
        takebacks: false,
        players,
        dropped: Vec::new(),
        timeouts: Vec::new(),
        played,
        over: false,
    }
}

/// Players as records, tournaments and ratings may name them: with an
/// address for a display name in every form seen, or hiding one.
const PLAYERS: &[&str] = &[
    "'alice@example.org' <alice@example.org>",
    "Bob@Example.org <bob@example.org>",
    "carol@example.org (Carol)",
    "\"carol@example.net (Carol)\" <carol@example.net>",
    "Mallory <x@evil.test> <mallory@example.org>",
    "dan%40example.org <dan@example.org>",
    "erin&#64;example.org <erin@example.org>",
    "frank＠example.org <frank@example.org>",
    "grace [at] example.org <grace@example.org>",
    "heidi\u{200B}@\u{200B}example.org <heidi@example.org>",
    "'ivan@example.org'",
    "judy%example.org@relay.test",
    "\"kim@example.org\"",
];

#[test]
fn no_served_file_holds_an_address_in_any_form() {
    let site = Site::new();
    for (g, pair) in PLAYERS.chunks(2).enumerate() {
        let mut rec = record(g, Rules::Mad);
        rec.players = PerSide::new(Some(pair[0].into()), pair.get(1).map(|p| p.to_string()));
        site.write(&rec);
    }
    let mut ratings = crate::store::league::RatingsFile::default();
    for p in PLAYERS {
        let address = crate::reply::address_of(p);
        ratings.table.players.insert(address, Default::default());
    }
    site.store.write_ratings("mad", &ratings).unwrap();
    let players = PLAYERS.iter().map(|p| p.to_string()).collect();
    let cup = round_robin("cup", players, Vec::new());
    site.store.write_tournament(&cup).unwrap();
    site.build();
    let forbidden: Vec<String> = PLAYERS
        .iter()
        .map(|p| crate::reply::address_of(p))
        .chain([
            "x@evil.test".into(),
            "example.org".into(),
            "example.net".into(),
        ])
        .chain([
            "evil.test".into(),
            "relay.test".into(),
            "%40".into(),
            "#64;".into(),
        ])
        .collect();
    let files = all_files(&site.www());
    assert!(files.len() > 10, "{files:?}");
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap().to_lowercase();
        for bad in &forbidden {
            assert!(!text.contains(bad.as_str()), "{}: {bad}", f.display());
        }
    }
    // What they are shown as.
    let index = site.page("index.html");
    for name in [
        "alice", "bob", "carol", "mallory", "dan", "erin", "frank", "grace",
    ] {
        assert!(index.contains(&format!(">{name}</a>")), "{name}: {index}");
    }
    let cup = site.page("tournaments/cup.html");
    assert!(
        cup.contains(". judy</td>") && cup.contains(". kim</td>"),
        "{cup}"
    );
}

fn all_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(all_files(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// A page escapes text as the mails do: an apostrophe as `&#39;`, the
/// board's and the mails' form, not the template engine's own.
#[test]
fn pages_escape_text_as_the_mails_do() {
    let mut env = super::pages::environment();
    env.add_template("probe.html", "<p>{{ text }}</p>").unwrap();
    let text = "Bob's <b>&\"";
    let page = env
        .get_template("probe.html")
        .unwrap()
        .render(minijinja::context! { text })
        .unwrap();
    assert_eq!(page, format!("<p>{}</p>", pbem_engine::board::escape(text)));
    assert_eq!(page, "<p>Bob&#39;s &lt;b&gt;&amp;&quot;</p>");
}

#[test]
fn a_games_outcome_is_said_once() {
    use super::game::outcome;
    assert_eq!(outcome("drawn", "drawn by agreement"), "drawn by agreement");
    assert_eq!(outcome("drawn", "no legal move"), "drawn: no legal move");
    assert_eq!(
        outcome("black won", "red resigned"),
        "black won: red resigned"
    );
    assert_eq!(
        outcome("black won", "Black won on time"),
        "Black won on time"
    );
    assert_eq!(outcome("drawn", ""), "drawn");
    // A reason shorter than the outcome, or cut inside a letter.
    assert_eq!(outcome("black won", "é"), "black won: é");
}

#[test]
fn a_long_tournament_goes_on_over_pages_of_at_most_200_rows() {
    let site = Site::new();
    let players: Vec<String> = (0..64)
        .map(|i| format!("P{i} <p{i}@example.org>"))
        .collect();
    // A round robin of 64 played to its end: 63 rounds of 32 games.
    let played = (0..63)
        .map(|r| crate::store::league::RoundFile {
            games: (0..32)
                .map(|g| crate::store::league::Pairing {
                    first: g,
                    second: (g + r + 1) % 64,
                    game: None,
                    outcome: None,
                })
                .collect(),
            // A bye, as an odd number of players has: a row too.
            bye: Some(63),
            closed_by: None,
        })
        .collect();
    let cup = crate::store::league::TournamentFile {
        over: true,
        ..round_robin("big", players, played)
    };
    site.store.write_tournament(&cup).unwrap();
    site.build();
    // 64 standings, 2,016 games and 63 byes: 11 pages.
    let pages: Vec<String> = (1..=11)
        .map(|k| site.page(&format!("tournaments/{}", super::pager::file("big", k))))
        .collect();
    assert!(!site.www().join("tournaments/big_12.html").exists());
    let mut games = 0;
    for (k, page) in pages.iter().enumerate() {
        let rows = page.matches("<tr><td>").count() + page.matches("<li>").count();
        assert!(rows <= 200, "page {}: {rows} rows", k + 1);
        games += page.matches("<li>").count() - page.matches(": a bye</li>").count();
        assert!(
            page.contains("aria-label=\"pages\""),
            "page {} links the others",
            k + 1
        );
    }
    assert_eq!(games, 63 * 32);
    let byes: usize = pages
        .iter()
        .map(|p| p.matches(": a bye</li>").count())
        .sum();
    assert_eq!(byes, 63, "each round's bye once");
    assert_eq!(
        pages[0].matches("<tr><td>").count(),
        64,
        "the standings first"
    );
    assert!(pages[1].contains("(continued)"), "a round cut goes on");
    assert!(pages[10].contains("<h2>Round 63"), "{}", pages[10]);
}

/// A move taken back by agreement (docs/src/formats/record.md,
/// "Takebacks") is no move of the game's page: the page lists and draws
/// the moves that stand, the one played again in its place among them.
#[test]
fn a_game_page_shows_the_moves_that_stand_after_a_takeback() {
    use pbem_engine::record::Event;
    let site = Site::new();
    let moves = long_moves(3);
    let mut rec = long_record("tb", &moves);
    let event = |side, e| MoveLine {
        line: 0,
        number: None,
        side: Some(side),
        entry: Entry::Event(e),
        time: Some(created(5)),
        message_id: None,
    };
    rec.lines.push(event(Side::A, Event::TakebackAsked));
    rec.lines.push(event(Side::B, Event::TakebackAccepted));
    // Another move 3 in the position after two.
    let two = long_record("tb", &moves[..2]);
    let again = pbem_engine::record::replay::<pbem_engine::games::embed::Embed>(&two)
        .map(|r| {
            let pos = r.position();
            game::listed_moves(pos)
                .into_iter()
                .map(|(m, _)| game::canonical(pos, m))
                .find(|m| *m != moves[2])
        })
        .unwrap()
        .expect("another move");
    rec.lines.push(MoveLine {
        entry: Entry::Move(again.clone()),
        number: Some(3),
        ..rec.lines[2].clone()
    });
    site.write(&rec);
    assert_eq!(site.build().remade, 1);
    let page = site.page("games/tb.html");
    assert!(page.contains("after 3 moves"), "{page}");
    assert_eq!(page.matches("<li><a href=\"#p").count(), 3);
    assert!(page.contains(&format!("black {again}</a>")), "{page}");
    assert!(!page.contains(&format!("black {}</a>", moves[2])), "{page}");
    assert_eq!(plies_shown(&page), vec![0, 1, 2, 3]);
}
