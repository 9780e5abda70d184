//! One whole game by mail, from challenge to result, whatever carries the
//! mail ([`Mailroom`]): two scripted players ([`pbem::demo::Player`])
//! answer pbem's mails as a mail client's Reply would, with the move
//! numbers and the reply addresses (keys) of pbem's mails; at the end the
//! record on disk is the bundled example game, move for move.

use pbem::demo::{Player, Received, example_moves};
use pbem::record::{self, Record};
use pbem::rules::Rules;
use pbem::store::Store;

/// Whatever carries the mail between the players and pbem.
pub trait Mailroom {
    /// Where challenges go.
    fn pbem_address(&self) -> String;
    /// Sends `raw`, written by player `who` (0 Alice, 1 Bob), to `to`.
    fn post(&mut self, who: usize, to: &str, raw: &[u8]);
    /// Lets pbem work until it has handled `n` more mails (a no-op where
    /// pbem runs by itself: a daemon, an MTA pipe).
    fn run_pbem(&mut self, n: usize);
    /// Waits for at least `n` new mails to reach player `who`; hands them
    /// all to the player and returns them.
    fn receive(&mut self, who: usize, player: &mut Player, n: usize) -> Vec<Received>;
    /// pbem's data folder.
    fn store(&self) -> Store;
    /// Called after each move has been answered (ply counts from 1).
    fn after_ply(&mut self, _ply: usize) {}
}

/// Plays the example game of `rules` through `room` and checks the
/// record; returns the game's id.
pub fn play_game(room: &mut impl Mailroom, players: &mut [Player; 2], rules: Rules) -> String {
    let pbem = room.pbem_address();
    let bob = players[1].address.clone();
    let challenge = players[0].compose(
        &pbem,
        "a game?",
        &format!("Hi Bob!\n\nchallenge {} {bob} first\n", rules.slug()),
        None,
    );
    room.post(0, &pbem, &challenge);
    room.run_pbem(1);
    let got = room.receive(1, &mut players[1], 1);
    assert_eq!(got.len(), 1, "{rules}: bob gets the challenge: {got:?}");
    let subject = &got[0].subject;
    let flat = got[0].text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("challenges you"), "{}", got[0].text);
    let id: String = subject
        .strip_prefix("[pbem ")
        .unwrap_or_else(|| panic!("a pbem subject: {subject}"))
        .chars()
        .take_while(|c| *c != ']')
        .collect();
    let ack = room.receive(0, &mut players[0], 1);
    assert_eq!(ack.len(), 1, "{ack:?}");
    assert!(
        ack[0].text.starts_with("Your challenge to"),
        "{}",
        ack[0].text
    );
    // One thread per game: every mail of the game to a player
    // has the subject of the challenge.
    let thread = subject.clone();
    assert_eq!(ack[0].subject, thread);

    let (to, raw) = players[1].answer(&id, "accept").unwrap();
    room.post(1, &to, &raw);
    room.run_pbem(1);
    for (who, player) in players.iter_mut().enumerate() {
        let got = room.receive(who, player, 1);
        assert_eq!(
            got.len(),
            1,
            "{} hears the game begins: {got:?}",
            player.name
        );
        assert!(got[0].text.contains("begins"), "{}", got[0].text);
        assert_eq!(got[0].subject, thread);
    }

    let tag = format!("[pbem {id}]");
    let moves = example_moves(rules);
    assert!(moves.len() >= 10);
    for (i, m) in moves.iter().enumerate() {
        let who = i % 2;
        let (to, raw) = players[who]
            .answer(&tag, &format!("#{} {m}", i + 1))
            .unwrap();
        assert!(
            to.contains('+'),
            "the reply goes to the keyed address: {to}"
        );
        room.post(who, &to, &raw);
        room.run_pbem(1);
        let heard = Heard {
            rules,
            ply: i + 1,
            text: m,
            last: i + 1 == moves.len(),
            thread: &thread,
        };
        for (p, player) in players.iter_mut().enumerate() {
            heard.check(
                room.receive(p, player, if heard.last { 2 } else { 1 }),
                player,
            );
        }
        room.after_ply(i + 1);
    }
    // Nothing more comes: no reply was sent twice.
    std::thread::sleep(std::time::Duration::from_millis(300));
    for (who, player) in players.iter_mut().enumerate() {
        let extra = room.receive(who, player, 0);
        assert!(extra.is_empty(), "{} got more: {extra:?}", player.name);
    }
    let last = players[0]
        .received
        .iter()
        .rfind(|r| !is_analysis(r))
        .unwrap();
    assert_eq!(last.subject, thread);
    assert!(last.text.contains("The game is over"), "{}", last.text);
    check_record(&room.store(), &id, rules, &moves);
    id
}

/// A move as each player must hear of it.
struct Heard<'a> {
    rules: Rules,
    ply: usize,
    text: &'a str,
    /// The move ends the game: the bot's analysis comes too, in the same
    /// poll (docs/src/players/analysis.md, "By mail").
    last: bool,
    thread: &'a str,
}

impl Heard<'_> {
    /// `got`, what `player` received after the move: its news once (and
    /// the analysis once, after the last move), in the game's thread.
    fn check(&self, got: Vec<Received>, player: &Player) {
        let (rules, m, ply) = (self.rules, self.text, self.ply);
        let (analysis, got): (Vec<Received>, Vec<Received>) =
            got.into_iter().partition(is_analysis);
        assert_eq!(
            analysis.len(),
            usize::from(self.last),
            "{rules}: {} gets the analysis once, at the end",
            player.name
        );
        assert_eq!(
            got.len(),
            1,
            "{rules}: {} hears of move {ply} {m} once: {:?}",
            player.name,
            got.iter().map(|r| &r.subject).collect::<Vec<_>>()
        );
        // What happened is the first line of the mail.
        let first = got[0].text.lines().next().unwrap_or("");
        assert!(
            first.contains(m) || first.starts_with("The game is over"),
            "{rules} move {ply} {m}: {first}\n{}",
            got[0].text
        );
        assert_eq!(got[0].subject, self.thread);
    }
}

/// Whether `r` is the mail of the bot's analysis of a finished game.
fn is_analysis(r: &Received) -> bool {
    r.text.starts_with("pbem's bot has gone through")
}

/// The record on disk is the example game in the writer's full form, and
/// holds no key.
pub fn check_record(store: &Store, id: &str, rules: Rules, moves: &[String]) {
    let text = store.read_game(id).unwrap().expect("the record is there");
    let rec = Record::parse(&format!("{id}.toml"), &text).unwrap();
    assert_eq!(rec.moves(), moves, "{rules}: every move once, in order");
    assert!(
        rec.lines
            .iter()
            .all(|l| l.time.is_some() && l.message_id.is_some()),
        "every line has its time and Message-ID"
    );
    let checked = pbem::cli::validate_record(&rec).unwrap();
    assert!(checked.result.is_over());
    let example = Record::parse("example", rules.info().example).unwrap();
    assert_eq!(Some(checked.result), example.result.map(|(v, _)| v));
    assert_eq!(
        record::write::to_string(&rec),
        text,
        "the record is in the writer's full form"
    );
    let secrets = store.secrets(id, rec.rules).unwrap();
    for t in secrets.tokens.given().map(|(_, t)| t) {
        assert!(!text.contains(t.as_str()), "keys never reach the record");
    }
}
