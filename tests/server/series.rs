//! Series by mail: two scripted players answer
//! pbem's mails as a mail client's Reply would; pbem runs as `pbem poll`
//! over a Maildir with its clock pinned.
//!
//! - Every game: a best of 3 that goes the distance: a draw, a win for
//!   the player who moved second, a win for the other; who moves first in
//!   each game follows the ruling of each game's rules text ("Playing a
//!   series": the loser, after a draw whoever moved second, in the New
//!   Millennium games; the players swap sides where the rules fix the
//!   first side); the score in each game's mails, the end announced to
//!   both, the ratings rebuilt from the records alike.
//! - A best of 3 won 2-0 ends after two games.
//! - `rematch` after a game offers the next one, with the first mover by
//!   the same ruling.

use crate::common;

use common::club::Club;
use pbem::rules::Rules;

const ALICE: &str = "alice@example.org";
const BOB: &str = "bob@example.org";

/// Alice and Bob at one table.
fn table() -> Club {
    Club::new(&[("Alice", ALICE), ("Bob", BOB)])
}

/// Alice challenges Bob to a best of `length`, moving first; Bob accepts.
/// The first game's id.
fn begin_series(t: &mut Club, rules: Rules, length: u32) -> String {
    t.send(
        0,
        &format!("challenge {} {BOB} first series {length}\n", rules.slug()),
    );
    let log = t.poll();
    assert!(log.contains("challenge"), "{log}");
    assert!(
        t.last_about(1, "challenges you")
            .contains(&format!("best of {length}"))
    );
    let id = t.last_game(1);
    t.say(1, &id, "accept");
    id
}

/// The player at `seat` resigns game `id`.
fn resign(t: &mut Club, id: &str, seat: usize) {
    let log = t.say(seat, id, "resign");
    assert!(log.contains("resigned"), "{log}");
}

/// The players agree a draw in game `id`.
fn draw(t: &mut Club, id: &str) {
    t.say(0, id, "draw");
    let log = t.say(1, id, "accept draw");
    assert!(
        log.contains("accepted the draw") || log.contains("draw"),
        "{log}"
    );
}

/// Game `number` of the series whose first game is `first`.
fn game_id(first: &str, number: usize) -> String {
    if number == 1 {
        first.to_string()
    } else {
        format!("{first}-{number}")
    }
}

fn series_goes_the_distance(rules: Rules) {
    let mut t = table();
    let g1 = begin_series(&mut t, rules, 3);
    let rec = t.record(&g1);
    assert_eq!(rec.match_info.series.as_deref(), Some(g1.as_str()));
    assert_eq!((rec.match_info.game, rec.match_info.of), (Some(1), Some(3)));
    assert_eq!(
        t.first_mover(&g1),
        ALICE,
        "the challenger asked to move first"
    );
    let loser_first = rules.fixed_first().is_none();

    // Game 1 drawn: whoever moved second (Bob) moves first in game 2,
    // under either ruling.
    draw(&mut t, &g1);
    let g2 = game_id(&g1, 2);
    assert_eq!(t.first_mover(&g2), BOB, "{rules}: after a draw");
    assert!(
        t.last_about(0, &g2).contains(
            "game 2 of a series, best of 3; the score so far: ½ for you, ½ for your opponent."
        ),
        "{}",
        t.last_about(0, &g2)
    );
    let drawn = t.last_about(0, "The game is over: a draw");
    assert!(
        drawn.contains(
            "The series (best of 3) stands at ½ for you, ½ for your opponent; the next game begins"
        ),
        "{drawn}"
    );

    // Game 2: Bob, moving first, resigns: Alice wins. The loser (Bob)
    // moves first in the New Millennium games; elsewhere the sides swap
    // (Alice).
    resign(&mut t, &g2, 1);
    let g3 = game_id(&g1, 3);
    let want = if loser_first { BOB } else { ALICE };
    assert_eq!(
        t.first_mover(&g3),
        want,
        "{rules}: after the first mover lost"
    );
    assert_eq!(t.record(&g3).match_info.game, Some(3));

    // Game 3: Alice resigns: 1½-1½, the series is drawn; both are told.
    resign(&mut t, &g3, 0);
    for who in 0..2 {
        let over = t.last_about(who, "(best of 3) is over after");
        assert!(over.contains("drawn, 1½ each"), "{over}");
    }
    assert!(t.pbem.record(&game_id(&g1, 4)).is_empty(), "no fourth game");
    // The drawn game is rated: both players wrote in it. Games 2 and 3
    // were given up before their winner wrote a line, so they are not (a
    // player who never wrote may be an address nobody asked); the ratings
    // rebuilt from the records agree.
    let out = t.pbem.run(
        &["ratings", rules.slug(), "--rebuild"],
        "2026-11-25T12:00:00Z",
    );
    assert!(
        out.contains("1 rated game rebuilt from the records; the same as kept"),
        "{out}"
    );
}

pbem_engine::game_tests!(rules, _G => {
    let _shared = crate::common::lock::shared();
    series_goes_the_distance(rules)
});

#[test]
fn a_best_of_three_won_two_nil_ends_after_two_games() {
    let _shared = common::lock::shared();
    let mut t = table();
    let g1 = begin_series(&mut t, Rules::Mad, 3);
    resign(&mut t, &g1, 1);
    let g2 = game_id(&g1, 2);
    // Bob lost: he moves first.
    assert_eq!(t.first_mover(&g2), BOB);
    resign(&mut t, &g2, 1);
    assert!(
        t.pbem.record(&game_id(&g1, 3)).is_empty(),
        "decided after two"
    );
    let over = t.last_about(0, "(best of 3) is over after");
    assert!(
        over.contains("you won it, 2 to 0") && over.contains("after 2 games"),
        "{over}"
    );
    let over = t.last_about(1, "(best of 3) is over after");
    assert!(over.contains("won it, 2 to 0"), "{over}");
    let ended = t.last_about(0, "The game is over");
    assert!(
        ended.contains("stands at 2 for you, 0 for your opponent: it is over"),
        "{ended}"
    );
    // `rematch` in reply to the mail of the series' end (it carries
    // Bob's key for the last game): Alice is challenged.
    t.say(1, &g2, "rematch");
    assert!(
        t.last_about(0, "challenges you to a game of M.A.D.")
            .contains("bob@example.org")
    );
}

#[test]
fn a_rematch_offers_the_next_game_loser_first() {
    let _shared = common::lock::shared();
    let mut t = table();
    // A single game of Embed, Alice first; Alice resigns.
    t.send(0, &format!("challenge embed {BOB} first 3d unrated\n"));
    t.poll();
    let id = t.last_game(1);
    t.say(1, &id, "accept");
    assert!(!t.record(&id).match_info.rated);
    // Too early.
    let log = t.say(1, &id, "rematch");
    assert!(log.contains("refused"), "{log}");
    assert!(t.last_about(1, "not accepted").contains("still in play"));
    resign(&mut t, &id, 0);
    // Bob, the winner, asks for a rematch: Alice (the loser) moves first.
    t.say(1, &id, "rematch");
    let offer = t.last_about(0, "challenges you");
    assert!(
        offer.contains("You would play black; black moves first"),
        "{offer}"
    );
    assert!(
        offer.contains("The game would be unrated") && offer.contains("3d"),
        "{offer}"
    );
    let next = t.last_game(0);
    assert_ne!(next, id);
    // Asked twice, one challenge.
    t.say(1, &id, "rematch");
    assert_eq!(t.last_game(0), next, "the same challenge again");
    t.say(0, &next, "accept");
    assert_eq!(t.first_mover(&next), ALICE);
}

#[test]
fn the_ratings_by_mail_list_at_most_fifty_players_a_game() {
    let _shared = common::lock::shared();
    let mut t = table();
    // Sixty rated players of M.A.D., as thirty games would leave them.
    let mut file = pbem::store::league::RatingsFile::default();
    for i in 0..30 {
        let (a, b) = (
            format!("w{i:02}@example.org"),
            format!("l{i:02}@example.org"),
        );
        file.table.rate(&a, &b, pbem_league::Outcome::FirstWins);
    }
    t.pbem.store.write_ratings("mad", &file).unwrap();
    t.send(1, "ratings mad\n");
    t.poll();
    let answer = t.last_about(1, "Ratings in M.A.D.");
    assert_eq!(answer.matches("place ").count(), 50, "{answer}");
    assert!(answer.contains("and 10 more"), "{answer}");
    // The local parts only: a stranger gets no list to harvest.
    assert!(
        answer.contains("place 1: w00: ") && !answer.contains("example.org"),
        "{answer}"
    );
}

/// The end of a game as each player reads it: "you won" or "you lost",
/// and how; their rating before and after; the line that asks for a
/// rematch, which works in a reply to that very mail. `games` then says
/// "you won" or "you lost" of the game that ended, and whose move it is
/// in the one that begins.
#[test]
fn each_player_reads_their_own_result_and_how_to_ask_for_a_rematch() {
    use pbem_engine::game;
    let _shared = common::lock::shared();
    let mut t = table();
    t.send(0, &format!("challenge mad {BOB} first\n"));
    t.poll();
    let id = t.last_game(1);
    t.say(1, &id, "accept");
    // Both write in the game (so it is rated): Alice moves, Bob resigns.
    let opening = {
        let r = pbem::record::replay::<pbem_engine::games::mad::Mad>(&t.record(&id)).unwrap();
        let (mv, _) = game::listed_moves(r.position())[0].clone();
        game::canonical(r.position(), mv)
    };
    t.say(0, &id, &format!("{opening}\n"));
    resign(&mut t, &id, 1);
    let won = t.last_about(0, "The game is over");
    let lost = t.last_about(1, "The game is over");
    for (text, result, sign) in [(&won, "you won", "(+"), (&lost, "you lost", "(-")] {
        assert!(
            text.contains(&format!("The game is over, and {result} ("))
                && text.contains(" resigned)."),
            "{text}"
        );
        assert!(text.contains("Your rating in M.A.D.: 1500 → "), "{text}");
        assert!(text.contains(sign), "{text}");
        assert!(
            text.contains("again, reply with the single word `rematch` to a mail of this game"),
            "{text}"
        );
    }
    assert!(lost.contains("To play Alice again"), "{lost}");
    // Bob's `rematch`, in reply to the mail of the end: Alice is asked.
    t.say(1, &id, "rematch");
    let next = t.last_game(0);
    assert_ne!(next, id);
    assert!(t.last_about(0, "challenges you").contains(BOB));
    t.say(0, &next, "accept");
    // Bob lost: he moves first in the rematch.
    assert_eq!(t.first_mover(&next), BOB);
    for seat in [0, 1] {
        t.send(seat, "games\n");
    }
    t.poll();
    let alice = t.last_about(0, &next);
    let bob = t.last_about(1, &next);
    assert!(
        alice.contains("over: you won") && alice.contains("in play, Bob's move"),
        "{alice}"
    );
    assert!(
        bob.contains("over: you lost") && bob.contains("in play, your move"),
        "{bob}"
    );
}
