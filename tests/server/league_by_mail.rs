//! Series, rematch and a tournament with sign-up, and a game
//! against pbem's bot, tried as players would, by mail only,
//! through the real mail servers ("How it is checked"): Alice and Bob are real mailboxes at the loopback Postfix and
//! Dovecot (`scripts/mailstack`), sending over submission and reading over
//! IMAP; pbem reads its own mailbox over IMAP and replies over submission.
//! Bob's mails are written by a real mail client, s-nail (its replies
//! with its own quoting and threading; [`common::snail`]); Alice's by the
//! scripted player. The admin's only part is `pbem tournament new`.

use crate::common;

use common::mailstack::{PbemSide, StackRoom, nonce, stack};
use common::play::Mailroom;
use pbem::demo::{Player, Received};
use pbem::mailbox::imap::{Imap, Security};
use pbem::record::Record;
use pbem::reply::address_of;
use std::time::{Duration, Instant};

/// The text of a mail, lines joined with single spaces.
fn flat(r: &Received) -> String {
    r.text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The two players and the mail they got, as it came.
struct Desk {
    room: StackRoom,
    players: [Player; 2],
    /// Each player's mails from pbem, as they came, with their subjects.
    got: [Vec<(String, Vec<u8>)>; 2],
}

/// Bob, who answers with s-nail.
const BOB: usize = 1;

impl Desk {
    /// Player `who` answers the newest mail about `tag` with `body`
    /// (Bob with s-nail's reply); pbem handles it.
    fn answer(&mut self, who: usize, tag: &str, body: &str) {
        let (to, raw) = if who == BOB {
            let (_, mail) = self.got[who]
                .iter()
                .rev()
                .find(|(subject, _)| subject.contains(tag))
                .unwrap_or_else(|| panic!("Bob has no mail about {tag}"));
            let raw = common::snail::reply(mail, &self.players[who].address, body);
            let text = String::from_utf8_lossy(&raw);
            assert!(text.contains("User-Agent: s-nail"), "{text}");
            (self.players[who].address.clone(), raw)
        } else {
            self.players[who].answer(tag, body).unwrap()
        };
        self.room.post(who, &to, &raw);
        self.room.run_pbem(1);
    }

    /// Player `who` writes a new mail to pbem (Bob with s-nail).
    fn write(&mut self, who: usize, subject: &str, body: &str) {
        let to = self.room.pbem_address();
        let raw = if who == BOB {
            common::snail::compose(&self.players[who].address, &to, subject, body)
        } else {
            self.players[who].compose(&to, subject, body, None)
        };
        self.room.post(who, &to, &raw);
    }

    /// Each player's next `n` mails, as flat texts.
    fn next(&mut self, n: [usize; 2]) -> [Vec<String>; 2] {
        let mut out: [Vec<String>; 2] = Default::default();
        for who in 0..2 {
            let got = self.room.receive_raw(who, &mut self.players[who], n[who]);
            assert_eq!(got.len(), n[who], "{}", self.players[who].name);
            for (raw, r) in got {
                out[who].push(flat(&r));
                self.got[who].push((r.subject, raw));
            }
        }
        out
    }

    /// The id of the newest game Alice or Bob was told of.
    fn newest_id(&self, who: usize) -> String {
        id_of(self.players[who].received.last().unwrap())
    }
}

/// The id in a mail's subject `[pbem ID] ...`.
fn id_of(r: &Received) -> String {
    r.subject
        .trim_start_matches("[pbem ")
        .chars()
        .take_while(|c| *c != ']')
        .collect()
}

/// Who moves first in game `id`.
fn first_mover(room: &StackRoom, id: &str) -> String {
    let text = room.store().read_game(id).unwrap().unwrap();
    let rec = Record::parse(id, &text).unwrap();
    address_of(rec.players[rec.first_side()].as_deref().unwrap())
}

#[test]
#[ignore = "needs the loopback mail stack (scripts/mailstack) and s-nail"]
fn a_series_a_rematch_and_a_tournament_by_real_mail() {
    let _shared = common::lock::shared();
    let s = stack();
    let tag = nonce();
    let dir = tempfile::tempdir().unwrap();
    let local = format!("pbem.{tag}");
    let address = s.address(&local);
    // The mails counted here are the league's: the bot's analysis of each
    // game that ends (its own mail, after the game's) is another test's.
    let server = StackRoom::server_with(
        s,
        dir.path(),
        &address,
        &s.imap_inbox(&address),
        "[bot]\nanalysis_nodes = 0\n",
    );
    let mut config = s.imap(&address, Security::Starttls);
    config.processed_folder = Some("done".into());
    let (room, players) = StackRoom::new(
        s,
        &tag,
        &address,
        PbemSide::Imap(server, Box::new(Imap::new(config))),
    );
    let mut desk = Desk {
        room,
        players,
        got: Default::default(),
    };
    series_and_rematch(&mut desk);
    tournament_with_sign_up(&mut desk, dir.path(), &tag);
    against_the_bot(&mut desk);
}

/// Bob challenges pbem's bot to Embed, moving first, and plays three
/// moves in reply to its mails (written by s-nail); the bot answers each
/// in the same poll, by mail.
fn against_the_bot(desk: &mut Desk) {
    desk.write(BOB, "the bot", "challenge embed bot level 1 first\n");
    desk.room.run_pbem(1);
    // A From anyone can write: Bob confirms from his mailbox, replying to
    // pbem's question with s-nail.
    let [_, b] = desk.next([0, 1]);
    assert!(b[0].contains("against pbem's bot"), "{}", b[0]);
    desk.answer(BOB, "confirm:", "accept\n");
    let [_, b] = desk.next([0, 1]);
    assert!(b[0].contains("The game begins"), "{}", b[0]);
    assert!(b[0].contains("pbem's bot (level 1)"), "{}", b[0]);
    let id = desk.newest_id(BOB);
    for n in 0..3 {
        let text = {
            let rec =
                Record::parse(&id, &desk.room.store().read_game(&id).unwrap().unwrap()).unwrap();
            let r = pbem::record::replay::<pbem_engine::games::embed::Embed>(&rec).unwrap();
            assert_eq!(r.moves.len(), 2 * n, "Bob to move: {:?}", r.moves);
            let (mv, _) = pbem_engine::game::listed_moves(r.position())[0].clone();
            pbem_engine::game::canonical(r.position(), mv)
        };
        desk.answer(BOB, &format!("[pbem {id}]"), &format!("{text}\n"));
        // The news of Bob's move, then the bot's.
        let [_, b] = desk.next([0, 2]);
        assert!(b[1].contains("It is your move"), "{}", b[1]);
    }
}

/// A best of 3 won 2-0 by Alice, then Bob's rematch in reply to the
/// mail of the series' end.
fn series_and_rematch(desk: &mut Desk) {
    let [alice, bob] = [0, 1].map(|who| desk.players[who].address.clone());
    // A best of 3 of M.A.D.: Alice challenges, moving first; Bob accepts.
    desk.write(
        0,
        "a series?",
        &format!("challenge mad {bob} first series 3\n"),
    );
    desk.room.run_pbem(1);
    let [a, b] = desk.next([1, 1]);
    assert!(
        b[0].contains("It would be the first game of a series, best of 3"),
        "{}",
        b[0]
    );
    assert!(
        a[0].contains("It is the first game of a series, best of 3"),
        "{}",
        a[0]
    );
    let g1 = desk.newest_id(BOB);
    desk.answer(1, &format!("[pbem {g1}]"), "accept");
    let [a, _] = desk.next([1, 1]);
    assert!(
        a[0].contains(
            "game 1 of a series, best of 3; the score so far: 0 for you, 0 for your opponent."
        ),
        "{}",
        a[0]
    );
    assert!(
        a[0].contains("Your rating in M.A.D.: 1500 (deviation 350)."),
        "{}",
        a[0]
    );
    assert_eq!(first_mover(&desk.room, &g1), alice);

    // Alice, moving first, plays; then Bob resigns game 1 (both wrote in
    // it, so it is rated): game 2 begins at once, Bob (the loser) first.
    let opening = {
        let rec = Record::parse(&g1, &desk.room.store().read_game(&g1).unwrap().unwrap()).unwrap();
        let r = pbem::record::replay::<pbem_engine::games::mad::Mad>(&rec).unwrap();
        let (mv, _) = pbem_engine::game::listed_moves(r.position())[0].clone();
        pbem_engine::game::canonical(r.position(), mv)
    };
    desk.answer(0, &format!("[pbem {g1}]"), &format!("{opening}\n"));
    desk.next([1, 1]);
    desk.answer(1, &format!("[pbem {g1}]"), "resign");
    let [a, b] = desk.next([2, 2]);
    assert!(
        a[0].contains("The game is over, and you won (red resigned).")
            && a[0].contains("Your rating in M.A.D.: 1500 → 1662 (+162)."),
        "{}",
        a[0]
    );
    assert!(
        b[0].contains("stands at 0 for you, 1 for your opponent; the next game begins at once"),
        "{}",
        b[0]
    );
    assert!(
        b[1].contains(
            "game 2 of a series, best of 3; the score so far: 0 for you, 1 for your opponent."
        ),
        "{}",
        b[1]
    );
    let g2 = format!("{g1}-2");
    assert_eq!(first_mover(&desk.room, &g2), bob);

    // Bob resigns game 2: 2-0, the series is over, both are told.
    desk.answer(1, &format!("[pbem {g2}]"), "resign");
    let [a, b] = desk.next([2, 2]);
    assert!(a[1].contains("you won it, 2 to 0"), "{}", a[1]);
    assert!(
        b[1].contains("won it, 2 to 0") && b[1].contains("after 2 games"),
        "{}",
        b[1]
    );

    // Bob asks for a rematch in game 2's thread; Alice accepts. Bob lost,
    // so he moves first.
    desk.answer(1, &format!("[pbem {g2}]"), "rematch");
    let [a, _] = desk.next([1, 1]);
    assert!(
        a[0].contains("challenges you to a game of M.A.D."),
        "{}",
        a[0]
    );
    let g3 = desk.newest_id(0);
    desk.answer(0, &format!("[pbem {g3}]"), "accept");
    desk.next([1, 1]);
    assert_eq!(first_mover(&desk.room, &g3), bob);
}

/// A tournament open to sign-up for a few seconds: both join by mail,
/// round 1 begins when it closes, Alice resigns, the table ends it.
fn tournament_with_sign_up(desk: &mut Desk, dir: &std::path::Path, tag: &str) {
    // A tournament open to sign-up for a few seconds; both join by mail.
    let config_path = dir.join("pbem.toml");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args([
            "tournament",
            "new",
            &format!("duo-{tag}"),
            "--game",
            "embed",
            "--signup-until",
            // Time for two round trips through the mail servers (the
            // sign-up and its confirmation) on a loaded machine.
            "25s",
            "--config",
        ])
        .arg(&config_path)
        .env_remove("PBEM_CONFIG")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let name = format!("duo-{tag}");
    for who in 0..2 {
        desk.write(who, "join", &format!("join {name}\n"));
    }
    desk.room.run_pbem(2);
    // Each confirms the sign-up from their mailbox (Bob with s-nail).
    let [a, b] = desk.next([1, 1]);
    assert!(a[0].contains("sign you up for the tournament"), "{}", a[0]);
    assert!(b[0].contains("sign you up for the tournament"), "{}", b[0]);
    for who in 0..2 {
        desk.answer(who, "confirm:", "accept\n");
    }
    let [a, b] = desk.next([1, 1]);
    assert!(
        a[0].contains(&format!("You are signed up for {name}")),
        "{}",
        a[0]
    );
    assert!(b[0].contains("2 players so far"), "{}", b[0]);
    // When sign-up closes, a poll begins round 1: each gets their game
    // and the pairings.
    let start = Instant::now();
    while desk
        .room
        .store()
        .tournament(&name)
        .unwrap()
        .unwrap()
        .played
        .is_empty()
    {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "round 1 never began"
        );
        std::thread::sleep(Duration::from_millis(500));
        desk.room.run_pbem(0);
    }
    let [a, _] = desk.next([2, 2]);
    assert!(a.iter().any(|m| m.contains("The game begins")), "{a:#?}");
    assert!(
        a.iter().any(|m| m.contains(&format!(
            "Tournament {name}: Embed, round-robin, 2 players. Round 1 of 1 is in play."
        ))),
        "{a:#?}"
    );
    // Alice (first in the tournament's list) moves first; she resigns:
    // the tournament is over, its table to both.
    let game = format!("{name}-r1-1");
    desk.answer(0, &format!("[pbem {game}]"), "resign");
    let [a, b] = desk.next([2, 2]);
    assert!(a[1].contains("It is over after 1 round"), "{}", a[1]);
    assert!(b[1].contains("place 1: bob."), "{}", b[1]);
}
