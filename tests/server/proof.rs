//! What a mail's From proves, and what it does not: anyone can write any
//! From, so what reaches beyond the sender's own games waits for a reply
//! carrying a key pbem mailed to that address, and no Message-ID alone
//! makes a mail "handled before". Each test is an attack as a stranger
//! would mount it, through `pbem poll` over a Maildir with its clock
//! pinned, and the honest use beside it.

use crate::common;

use common::club::Club;
use pbem::record::{self, Entry, Record};
use pbem_engine::game::{self, Game};
use pbem_engine::games::embed::Embed;

/// A node budget and a seed: quick, and the same moves every time.
const NODES: &str = "[bot]\nnodes = 300\nseed = 5\n";

/// `raw` with its Message-ID header replaced by `id`.
fn with_message_id(raw: &[u8], id: &str) -> Vec<u8> {
    let text = String::from_utf8_lossy(raw);
    text.split("\r\n")
        .map(|l| {
            if l.to_ascii_lowercase().starts_with("message-id:") {
                format!("Message-ID: {id}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\r\n")
        .into_bytes()
}

/// The first legal move for the side to move in Embed game `id`.
fn a_move(t: &Club, id: &str) -> String {
    let rec = t.record(id);
    let r = record::replay::<Embed>(&rec).unwrap();
    let (mv, _) = game::listed_moves(r.position())[0].clone();
    game::canonical(r.position(), mv)
}

/// Moves played in game `id`.
fn plies(t: &Club, id: &str) -> usize {
    t.record(id)
        .lines
        .iter()
        .filter(|l| matches!(l.entry, Entry::Move(_)))
        .count()
}

#[test]
fn a_move_under_an_id_the_record_holds_or_the_bot_will_use_is_played_once() {
    let _shared = common::lock::shared();
    let mut t = Club::with_settings(&[("Alice", "alice@example.org")], |s| {
        format!("{s}\n{NODES}")
    });
    t.send(0, "challenge embed bot level 1 first\n");
    t.poll();
    t.confirm(0);
    let id = t.last_game(0);
    // Three ids a player could put on her move: the one the bot's next
    // move had when they could be foreseen, the id of the bot's last move
    // (the record is published), and her own last move's (a client that
    // reuses ids).
    for n in 0..3 {
        let before = plies(&t, &id);
        let rec: Record = t.record(&id);
        let forged = match n {
            0 => format!("<bot.{id}.{}@localhost>", before + 1),
            _ => {
                let side = rec.players.side_where(|p| p.contains("+bot1@"));
                let pick = |l: &&record::MoveLine| (l.side == side) == (n == 1);
                match rec.lines.iter().rev().find(pick) {
                    Some(l) => l.message_id.clone().unwrap(),
                    None => continue,
                }
            }
        };
        let text = a_move(&t, &id);
        let (_, raw) = t.players[0]
            .answer(&format!("[pbem {id}]"), &format!("{text}\n"))
            .unwrap();
        let name = format!("forged-{n}");
        t.inbox
            .deliver(&name, &with_message_id(&raw, &forged))
            .unwrap();
        let got = t.players[0].received.len();
        // However many polls come, the move is played once and the bot
        // answers once: no loop.
        for _ in 0..4 {
            t.poll();
        }
        assert_eq!(
            plies(&t, &id),
            before + 2,
            "{forged}: {}",
            t.pbem.record(&id)
        );
        assert_eq!(
            t.players[0].received.len(),
            got + 2,
            "{forged}: the news of her move and of the bot's, once"
        );
    }
}

#[test]
fn a_forged_challenge_to_the_bot_begins_nothing_and_its_mails_are_bounded() {
    let _shared = common::lock::shared();
    let mut t = Club::with_settings(&[("Vic", "vic@example.org")], |s| format!("{s}\n{NODES}"));
    // A stranger writes fifty challenges to the bot From Vic's address,
    // each asking for a series of 25 with a one-day clock.
    for _ in 0..50 {
        t.send(0, "challenge embed bot level 1 first 1d series 25\n");
    }
    t.poll();
    // Vic never answers. Eleven days go by.
    for _ in 0..11 {
        t.minute += 24 * 60;
        t.poll();
    }
    assert!(t.pbem.store.bot_game_ids().unwrap().is_empty());
    assert!(t.pbem.store.game_ids().unwrap().is_empty(), "no game");
    let got = &t.players[0].received;
    assert!(
        got.iter().all(|r| !r.text.contains("The game begins")),
        "{got:#?}"
    );
    // Three questions (one per open challenge), refusals up to the hourly
    // limit of answers, and the notice that replies are paused.
    assert!(got.len() <= 3 + 20, "{} mails: {got:#?}", got.len());
    assert_eq!(
        got.iter()
            .filter(|r| r.subject.contains("] confirm:"))
            .count(),
        3
    );
}

#[test]
fn a_game_is_rated_only_when_both_players_proved_their_addresses() {
    let _shared = common::lock::shared();
    let mut t = Club::new(&[
        ("Vic", "vic@example.org"),
        ("Mallory", "mallory@example.org"),
        ("Alice", "alice@example.org"),
        ("Bob", "bob@example.org"),
    ]);
    // From Vic's address (a stranger's forgery), a rated game with a
    // one-day clock, Vic to move first; Mallory accepts. Vic never writes
    // and loses on time.
    t.send(0, "challenge embed mallory@example.org first 1d\n");
    t.poll();
    let forged = t.last_game(1);
    t.say(1, &forged, "accept");
    t.minute += 3 * 24 * 60;
    t.poll();
    let rec = t.record(&forged);
    assert!(
        matches!(
            rec.lines.last().map(|l| &l.entry),
            Some(Entry::Event(record::Event::Timeout))
        ),
        "{}",
        t.pbem.record(&forged)
    );
    let ratings = t.pbem.store.ratings("embed").unwrap();
    assert!(ratings.games.is_empty(), "{ratings:?}");
    // Alice and Bob both play: rated.
    t.send(2, "challenge embed bob@example.org first\n");
    t.poll();
    let honest = t.last_game(3);
    t.say(3, &honest, "accept");
    let text = a_move(&t, &honest);
    t.say(2, &honest, &text);
    t.say(3, &honest, "resign");
    let ratings = t.pbem.store.ratings("embed").unwrap();
    assert_eq!(ratings.games.len(), 1, "{ratings:?}");
    assert_eq!(ratings.games[0].id, honest);
    // The ratings rebuilt from the records agree: the rule is the
    // records', not the mail's.
    let out = t.run(&["ratings", "embed", "--rebuild"]);
    assert!(out.contains("1 rated game"), "{out}");
    assert_eq!(t.pbem.store.ratings("embed").unwrap(), ratings);
}

#[test]
fn one_mailbox_cannot_play_itself_under_another_tag() {
    let _shared = common::lock::shared();
    let mut t = Club::new(&[("Mallory", "mallory@example.org")]);
    t.send(0, "challenge embed Mallory+1@Example.org\n");
    t.poll();
    assert!(
        t.last_about(0, "you cannot play yourself")
            .contains("another player's address")
    );
    assert!(t.pbem.store.challenge_ids().unwrap().is_empty());
}

#[test]
fn sign_ups_and_leaves_count_only_once_confirmed_from_the_mailbox() {
    let _shared = common::lock::shared();
    let mut t = Club::new(&[
        ("P0", "p0@example.org"),
        ("P1", "p1@example.org"),
        ("P2", "p2@example.org"),
        ("P1", "P1+again@example.org"),
    ]);
    t.open_cup();
    // Forged sign-ups From p1 and p2, and a forged leave From p0, whom
    // the admin entered: nothing changes, each address is asked.
    t.send(1, "join cup\n");
    t.send(2, "join cup\n");
    t.send(0, "leave cup\n");
    t.poll();
    assert_eq!(t.tournament("cup").players, ["p0@example.org"]);
    for who in 0..3 {
        assert!(
            t.last_about(who, "confirm:")
                .contains("nothing is done until you confirm"),
            "p{who}"
        );
    }
    // The same request again mails the same question: nothing new waits.
    t.send(1, "join cup\n");
    t.poll();
    assert_eq!(t.pbem.store.confirmation_ids().unwrap().len(), 3);
    // p1 confirms from the mailbox, in words of their own (any reply
    // carrying the key but `decline` confirms); p2 declines; p0 never
    // answers.
    t.players[1]
        .reply(&t.inbox, "confirm:", "Yes, that was me.")
        .unwrap();
    t.players[2].reply(&t.inbox, "confirm:", "decline").unwrap();
    t.poll();
    let players = t.tournament("cup").players;
    assert_eq!(players.len(), 2, "{players:?}");
    assert!(players[1].contains("p1@example.org"), "{players:?}");
    assert!(players[1].starts_with("P1"), "the name of the join mail");
    assert!(
        t.last_about(2, "request dropped")
            .contains("nothing was done")
    );
    // A sign-up under another tag of a mailbox that is in already: told
    // so at once, as nothing is to be done.
    t.send(3, "join cup\n");
    t.poll();
    assert_eq!(t.tournament("cup").players.len(), 2);
    assert!(t.last_about(3, "signed up for cup already").contains("cup"));
    // Confirmed, a leave counts too.
    t.send(0, "leave cup\n");
    t.poll();
    t.confirm(0);
    assert!(t.last_about(0, "off the list of cup").contains("cup"));
    assert_eq!(t.tournament("cup").players.len(), 1);
}

/// The games of `who` against the bot in which the bot is to move.
fn due(t: &Club, who: usize) -> Vec<String> {
    let address = t.players[who].address.to_lowercase();
    let mut out = Vec::new();
    for id in t.pbem.store.bot_game_ids().unwrap() {
        let rec = t.record(&id);
        if !rec.players.given().any(|(_, p)| p.contains(&address)) {
            continue;
        }
        let r = record::replay::<Embed>(&rec).unwrap();
        let bot = rec.players.side_where(|p| p.contains("+bot3@")).unwrap();
        if r.end.is_none() && r.position().turn() == bot {
            out.push(id);
        }
    }
    out
}

#[test]
fn an_honest_players_bot_game_moves_within_two_polls_whatever_others_do() {
    let _shared = common::lock::shared();
    // Three addresses keep three level-3 games each due; the bot thinks
    // 100 ms a move and 450 ms a poll: five moves of the ten due.
    let mut t = Club::with_settings(
        &[
            ("A", "a@example.org"),
            ("B", "b@example.org"),
            ("C", "c@example.org"),
            ("Honest", "honest@example.org"),
        ],
        |s| format!("{s}\n[bot]\nthink_ms = 100\npoll_ms = 450\n"),
    );
    for who in 0..3 {
        for _ in 0..3 {
            t.send(who, "challenge embed bot level 3 first\n");
        }
    }
    t.send(3, "challenge embed bot level 3 first\n");
    t.poll();
    for who in 0..4 {
        t.confirm_all(who);
    }
    let mut waited = 0;
    for round in 0..6 {
        // Everyone moves wherever it is their turn: the attackers at once,
        // every poll.
        for who in 0..4 {
            for id in t.pbem.store.bot_game_ids().unwrap() {
                let rec = t.record(&id);
                let mine = rec
                    .players
                    .given()
                    .any(|(_, p)| p.contains(&t.players[who].address));
                if mine && !due(&t, who).contains(&id) {
                    let text = a_move(&t, &id);
                    t.players[who]
                        .reply(&t.inbox, &format!("[pbem {id}]"), &format!("{text}\n"))
                        .unwrap();
                }
            }
        }
        t.poll();
        if due(&t, 3).is_empty() {
            waited = 0;
        } else {
            waited += 1;
        }
        assert!(
            waited < 2,
            "poll {round}: the honest game waited {waited} polls"
        );
    }
}

/// A mail without a key is answered by one that carries none either: it
/// says where to write instead of "reply to this mail" (a reply to it
/// would come without a key again). To a player's own address it names
/// the keyed address of their game; a stranger who writes the same
/// learns the address of no one's game.
#[test]
fn a_keyless_answer_says_where_to_write_and_names_a_key_only_to_its_owner() {
    let _shared = common::lock::shared();
    let mut t = Club::new(&[
        ("Alice", "alice@example.org"),
        ("Bob", "bob@example.org"),
        ("Mallory", "mallory@example.org"),
    ]);
    t.send(0, "challenge embed bob@example.org first\n");
    t.poll();
    let id = t.last_game(1);
    t.say(1, &id, "accept");
    // Alice asks for the board in a new mail to pbem's own address.
    t.send(0, "board\n");
    t.poll();
    let alice = t.last_about(0, "which game?");
    let last = t.players[0].received.last().unwrap();
    assert_eq!(last.reply_to, None, "the answer carries no key");
    assert!(alice.contains(&format!("pbem+{id}.")), "{alice}");
    assert!(
        alice.contains("This mail carries no key of yours")
            && alice.contains("Any other command, like `help` or `challenge GAME ADDRESS`, goes to pbem@example.net."),
        "{alice}"
    );
    assert!(!alice.contains("reply to this mail"), "{alice}");
    // Mallory writes the same: no game's address, and where to start one.
    t.send(2, "board\n");
    t.poll();
    let mallory = t.last_about(2, "which game?");
    assert!(!mallory.contains("pbem+"), "{mallory}");
    assert!(
        mallory.contains("`challenge GAME ADDRESS`, sent to pbem@example.net, starts one"),
        "{mallory}"
    );
    assert!(!mallory.contains("reply to this mail"), "{mallory}");
}
