//! People and times as pbem writes them to people: every person named by
//! their name (before one is known, the local part of their address),
//! never by an address; a game's subject kept for its whole thread; times
//! as `Mon 30 Nov 2026, 18:00 CET` in the reader's zone; a tournament's
//! games naming it and their round; a mistyped tournament answered with
//! the nearest name and the tournaments there are. Scripted players
//! answer pbem's mails as a mail client's Reply would; `pbem poll` runs
//! over a Maildir with its clock pinned.

use crate::common;

use common::club::Club;
use pbem::store::Player;

const ALICE: &str = "alice@example.org";
const CAROL: &str = "carol@example.org";

/// Every subject of the mails `who` got about game `id`.
fn subjects(club: &Club, who: usize, id: &str) -> Vec<String> {
    club.players[who]
        .received
        .iter()
        .filter(|r| r.subject.contains(&format!("[pbem {id}]")))
        .map(|r| r.subject.clone())
        .collect()
}

/// Each mail's text `who` got, up to a record written out in full.
fn prose(club: &Club, who: usize) -> Vec<String> {
    club.players[who]
        .received
        .iter()
        .map(|r| {
            let text = r.text.split("\n-----").next().unwrap_or_default();
            format!("{}\n{text}", r.subject)
        })
        .collect()
}

/// The texts of every mail `who` got, one string.
fn all_text(club: &Club, who: usize) -> String {
    club.players[who]
        .received
        .iter()
        .map(|r| format!("{}\n{}\n", r.subject, r.text))
        .collect()
}

#[test]
fn a_challenge_names_people_by_local_part_and_keeps_its_subject_for_the_game() {
    let _shared = common::lock::shared();
    let mut club = Club::new(&[("Alice", ALICE), ("Carol", CAROL)]);
    club.send(0, &format!("challenge embed {CAROL} first series 3\n"));
    club.poll();
    let id = club.last_game(1);
    let challenge = club.last_about(1, "challenges you");
    assert!(
        challenge.contains(&format!("alice ({ALICE}) challenges you")),
        "{challenge}"
    );
    club.say(1, &id, "accept");
    club.say(0, &id, "resign");
    for who in [0, 1] {
        let all = subjects(&club, who, &id);
        assert!(all.len() >= 3, "{all:?}");
        for s in &all {
            assert_eq!(s, &format!("[pbem {id}] Embed: alice vs carol"), "{all:?}");
        }
        // The prose (before a record written out in full) names no one
        // by address, but where the address is the point: who challenged.
        for text in prose(&club, who) {
            let bare = text
                .replace(&format!("({ALICE})"), "")
                .replace(&format!("({CAROL})"), "");
            assert!(!bare.contains(ALICE) && !bare.contains(CAROL), "{text}");
        }
    }
    // Game 2 begins between the names the players gave.
    let g2 = format!("{id}-2");
    let second = subjects(&club, 0, &g2);
    assert!(
        second
            .first()
            .is_some_and(|s| s.contains("Alice") && s.contains("Carol") && !s.contains('@')),
        "{second:?}"
    );
    club.say(0, &g2, "resign");
    let over = club.last_about(0, "won it");
    assert!(over.contains("Carol won it, 2 to 0"), "{over}");
    assert!(!over.contains('@'), "{over}");
}

#[test]
fn a_name_learnt_later_names_an_entrant_from_then_on() {
    let _shared = common::lock::shared();
    let mut club = Club::numbered(2);
    let out = club.run(&[
        "tournament",
        "new",
        "duo",
        "--game",
        "embed",
        "--player",
        "Ann Example <p0@example.org>",
        "--player",
        "p1@example.org",
    ]);
    assert!(out.contains("round 1 begun"), "{out}");
    let games = club.run(&["games"]);
    assert!(
        games.contains("Ann Example") && !games.contains('@'),
        "{games}"
    );
    let standings = club.last_about(1, "Tournament duo");
    assert!(
        standings.contains("Ann Example") && standings.contains("p1,"),
        "{standings}"
    );
    // P1 writes in their game: from then on pbem calls them P1; Ann
    // keeps the name she was entered with.
    let id = club.tournament("duo").played[0].games[0]
        .game
        .clone()
        .unwrap();
    club.say(1, &id, "draw");
    club.say(0, &id, "accept draw");
    let standings = club.last_about(0, "Tournament duo");
    assert!(standings.contains("P1,"), "{standings}");
    let shown = club.run(&["tournament", "show", "duo"]);
    assert!(
        shown.contains("Ann Example") && shown.contains("P1") && shown.contains("[drawn]"),
        "{shown}"
    );
    assert!(
        !shown.contains("first-wins") && !shown.contains('@'),
        "{shown}"
    );
}

#[test]
fn a_tournament_game_names_its_tournament_round_and_result() {
    let _shared = common::lock::shared();
    let mut club = Club::numbered(2);
    club.run(&[
        "tournament",
        "new",
        "pair",
        "--game",
        "embed",
        "--player",
        "Ann <p0@example.org>",
        "--player",
        "Bob <p1@example.org>",
    ]);
    let begun = club.last_about(0, "The game begins");
    assert!(
        begun.contains("your game of round 1 of the tournament pair"),
        "{begun}"
    );
    let id = club.tournament("pair").played[0].games[0]
        .game
        .clone()
        .unwrap();
    club.say(1, &id, "resign");
    let over = club.last_about(0, "The game is over");
    assert!(
        over.contains("round 1 of the tournament pair: won by Ann"),
        "{over}"
    );
    let shown = club.run(&["tournament", "show", "pair"]);
    assert!(shown.contains("[won by Ann]"), "{shown}");
    // The web archive says it alike, and dates its games in the form.
    let site = club.pbem.config.data.join("../site");
    let out = club.run(&["site", site.to_str().unwrap(), "--quiet"]);
    let page = std::fs::read_to_string(site.join("tournaments/pair.html"))
        .unwrap_or_else(|e| panic!("{e}: {out}"));
    assert!(page.contains("Ann vs Bob</a>: won by Ann"), "{page}");
    // No address: no `@` outside the style sheet (its `@media`).
    let text = page.split("</style>").nth(1).unwrap_or_default();
    assert!(
        !page.contains("first-wins") && !text.contains('@'),
        "{page}"
    );
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains(">Wed 25 Nov 2026, 10:0"), "{index}");
    // The machine's form only for machines, in `<time datetime>`.
    assert_eq!(
        index.matches("2026-11-25").count(),
        index.matches("datetime=\"2026-11-25").count(),
        "{index}"
    );
}

#[test]
fn times_are_in_the_readers_zone_to_the_minute() {
    let _shared = common::lock::shared();
    let mut club =
        Club::with_settings(&[("P0", "p0@example.org"), ("P1", "p1@example.org")], |s| {
            s.replace(
                "# timezone = \"Europe/Berlin\"",
                "timezone = \"Europe/Berlin\"",
            )
        });
    // The admin reads the server's zone: 10:00 UTC + 60m is 12:00 CET.
    let out = club.open_cup();
    assert!(out.contains("until Wed 25 Nov 2026, 12:00 CET;"), "{out}");
    let list = club.run(&["tournament", "list"]);
    assert!(list.contains("begins Wed 25 Nov 2026, 12:00 CET"), "{list}");
    // A player who set a zone reads theirs.
    club.pbem
        .store
        .write_player(&Player {
            address: "p1@example.org".into(),
            zone: Some(chrono_tz::Asia::Tokyo),
            ..Player::default()
        })
        .unwrap();
    club.send(1, "join cup\n");
    club.poll();
    club.confirm(1);
    let joined = club.last_about(1, "You are signed up for cup");
    assert!(
        joined.contains("Sign-up closes on Wed 25 Nov 2026, 20:00 JST;"),
        "{joined}"
    );
    for who in [0, 1] {
        let text = all_text(&club, who);
        assert!(!text.contains("T10:") && !text.contains("+00:00"), "{text}");
    }
}

#[test]
fn a_mistyped_tournament_is_answered_with_the_nearest_and_those_open() {
    let _shared = common::lock::shared();
    let mut club = Club::numbered(2);
    club.open_cup();
    club.send(1, "standings cpu\n");
    club.send(1, "join cupp\n");
    club.send(1, "standings\n");
    club.poll();
    let wrong = club.last_about(1, "no tournament called cupp");
    assert!(wrong.contains("did you mean cup?"), "{wrong}");
    assert!(wrong.contains("cup (Embed): sign-up open until"), "{wrong}");
    let which = club.last_about(1, "which tournament?");
    assert!(which.contains("cup (Embed)"), "{which}");
    let cli = club.run(&["tournament", "show", "cpu"]);
    assert!(
        cli.contains("did you mean cup?") && cli.contains("open or in play: cup"),
        "{cli}"
    );
}

#[test]
fn a_player_already_entered_who_joins_is_told_so() {
    let _shared = common::lock::shared();
    let mut club = Club::numbered(2);
    club.run(&[
        "tournament",
        "new",
        "two",
        "--game",
        "embed",
        "--player",
        "p0@example.org",
        "--player",
        "p1@example.org",
    ]);
    club.send(0, "join two\n");
    club.poll();
    let text = club.last_about(0, "two");
    assert!(
        text.contains("You are entered in two already: round 1 is in play"),
        "{text}"
    );
    assert!(!text.contains("closed"), "{text}");
}

#[test]
fn a_player_the_admin_adds_keeps_the_name_given() {
    let _shared = common::lock::shared();
    let players = [
        ("P0", "p0@example.org"),
        ("P1", "p1@example.org"),
        ("P2", "p2@example.org"),
    ];
    let mut club = Club::with_settings(&players, |s| {
        s.replace("# timezone = \"Europe/Berlin\"", "timezone = \"UTC\"")
    });
    club.open_cup();
    let out = club.run(&[
        "tournament",
        "add",
        "cup",
        "Bob <p1@example.org>",
        "p2@example.org",
    ]);
    assert!(out.contains("cup: 3 players (p0, Bob, p2)"), "{out}");
    let again = club.run(&["tournament", "add", "cup", "P1+x@Example.org"]);
    assert!(
        again.contains("p1+x@example.org is entered already"),
        "{again}"
    );
    let wrong = club.run(&["tournament", "add", "cpu", "p2@example.org"]);
    assert!(wrong.contains("did you mean cup?"), "{wrong}");
    club.send(2, "standings cup\n");
    club.poll();
    let table = club.last_about(2, "Tournament cup");
    assert!(
        table.contains("Sign-up is open until Wed 25 Nov 2026, 11:00 UTC"),
        "{table}"
    );
    let shown = club.run(&["tournament", "show", "cup"]);
    assert!(shown.contains("Bob") && !shown.contains('@'), "{shown}");
}
