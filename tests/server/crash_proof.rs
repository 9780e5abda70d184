//! What waits for a proof of address, begun by a poll killed at every
//! durable step (`common::sweep`): a game against the bot begun by its
//! challenger's confirmation (and the bot's first move, in the same
//! poll), the bot's answer to a move, and sign-ups and leaves confirmed
//! while a new request is made. After each kill the next poll must leave
//! what the poll never killed left: each game begun once, each move played
//! once, each request carried out once, each mail sent once.

use crate::common;

use common::club::Club;
use pbem::config::Config;
use pbem::record::{self, Record};
use pbem::store::Store;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

/// A node budget and a seed: the bot's moves are the same in every run.
const NODES: &str = "[bot]\nnodes = 300\nseed = 9\n";

/// What a poll left, as far as these sweeps compare it; what is drawn at
/// random anew in each run (a request's id, the bot's Message-ID nonce)
/// written as `*`.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    records: BTreeMap<String, String>,
    bot_games: Vec<String>,
    challenges: Vec<String>,
    /// Each request: what it asks, who asked, whether it is carried out.
    requests: Vec<(String, String, bool)>,
    tournament: Option<pbem::store::league::TournamentFile>,
    mails: BTreeMap<String, Vec<(String, String)>>,
    keys: Vec<String>,
}

/// `text` with what each run draws at random anew written as `*`.
fn tame(text: &str) -> String {
    let nonce = regex::Regex::new(r"(bot\.[a-z0-9-]+\.[0-9]+)\.[a-z0-9]+@").unwrap();
    let request = regex::Regex::new(r"ok-[a-z0-9]{12}").unwrap();
    request
        .replace_all(&nonce.replace_all(text, "$1.*@"), "ok-*")
        .into_owned()
}

/// Reads what a poll left in `dir`, and checks it on its own terms:
/// nothing left in the inbox or half-way in the data folder, no key
/// committed twice, every record replaying, each game's "game begins"
/// mailed once to each of its players.
fn check(dir: &Path, what: &str) -> Outcome {
    let config = Config::load(&dir.join("pbem.toml")).unwrap();
    let store = Store::open(&config.data).unwrap();
    let inbox = config.inbox.maildir.clone().unwrap();
    assert!(
        common::files(&inbox.join("new")).is_empty(),
        "{what}: mail left in the inbox"
    );
    common::assert_nothing_left(&store, &config.data);
    let keys = common::committed_keys(&config.data);
    let mut unique = keys.clone();
    unique.dedup();
    assert_eq!(unique, keys, "{what}: a key committed twice");
    let sent = dir.join("mail/sent");
    let mut records = BTreeMap::new();
    for id in store.game_ids().unwrap() {
        let text = store.read_game(&id).unwrap().unwrap();
        let rec = Record::parse(&id, &text).unwrap();
        pbem::cli::validate_record(&rec).unwrap();
        for (_, player) in rec.players.given().filter(|(_, p)| !p.contains("+bot")) {
            let begins = common::received_by(&sent, &pbem::reply::address_of(player))
                .iter()
                .filter(|m| m.subject.contains(&format!("[pbem {id}]")))
                .filter(|m| m.text.starts_with("The game begins"))
                .count();
            assert_eq!(begins, 1, "{what}: {id} begun once for {player}");
        }
        records.insert(id, tame(&text));
    }
    let mut requests: Vec<(String, String, bool)> = store
        .confirmation_ids()
        .unwrap()
        .iter()
        .map(|id| {
            let c = store.confirmation(id).unwrap().unwrap();
            (format!("{:?}", c.action), c.address, c.done.is_some())
        })
        .collect();
    requests.sort();
    Outcome {
        records,
        bot_games: store.bot_game_ids().unwrap(),
        challenges: store.challenge_ids().unwrap(),
        requests,
        tournament: store.tournament("cup").unwrap(),
        mails: common::sweep::mails(&sent, |m| (tame(&m.subject), tame(m.headline()))),
        keys,
    }
}

fn same(got: &Outcome, want: &Outcome, what: &str) {
    assert_eq!(got.records, want.records, "{what}: the records");
    assert_eq!(got.bot_games, want.bot_games, "{what}: the bot's games");
    assert_eq!(got.challenges, want.challenges, "{what}: the challenges");
    assert_eq!(got.requests, want.requests, "{what}: the requests");
    assert_eq!(got.tournament, want.tournament, "{what}: the tournament");
    assert_eq!(got.mails, want.mails, "{what}: the mails");
    assert_eq!(got.keys, want.keys, "{what}: the keys committed");
}

/// Sweeps the next poll of `club` (its mail waiting in the inbox) and
/// prints the figures.
fn swept(what: &str, club: &mut Club) -> u64 {
    club.minute += 1;
    let start = Instant::now();
    let points = common::sweep::sweep(club.pbem.dir.path(), &club.now(), what, check, same);
    eprintln!(
        "proof of address crash sweep, {what}: {points} kill points, each mended ({:.1}s)",
        start.elapsed().as_secs_f64()
    );
    assert!(points > 0, "{what}: the poll reached no durable step");
    points
}

/// Alice has challenged the bot (taking the side `order` says) and her
/// confirmation waits in the inbox.
fn bot_confirmation_waiting(order: &str) -> Club {
    let mut club = Club::with_settings(&[("Alice", "alice@example.org")], |s| {
        format!("{s}\n{NODES}")
    });
    club.send(0, &format!("challenge embed bot level 1 {order}\n"));
    club.poll();
    club.players[0]
        .reply(&club.inbox, "confirm:", "accept")
        .unwrap();
    club
}

#[test]
fn a_bot_game_begun_by_a_confirmation_in_a_killed_poll_is_begun_once() {
    let _shared = common::lock::shared();
    // The bot moves first: its move comes in the same poll.
    let mut club = bot_confirmation_waiting("second");
    swept("a bot game begun, the bot's first move", &mut club);
}

#[test]
fn the_bots_answer_in_a_killed_poll_is_played_once() {
    let _shared = common::lock::shared();
    let mut club = bot_confirmation_waiting("first");
    club.poll();
    let id = club.last_game(0);
    let rec = club.record(&id);
    let r = record::replay::<pbem_engine::games::embed::Embed>(&rec).unwrap();
    let (mv, _) = pbem_engine::game::listed_moves(r.position())[0].clone();
    let text = pbem_engine::game::canonical(r.position(), mv);
    club.players[0]
        .reply(&club.inbox, &format!("[pbem {id}]"), &format!("{text}\n"))
        .unwrap();
    swept("a move and the bot's answer", &mut club);
}

#[test]
fn sign_ups_and_leaves_confirmed_in_a_killed_poll_count_once() {
    let _shared = common::lock::shared();
    let mut club = Club::numbered(3);
    club.open_cup();
    club.send(1, "join cup\n");
    club.send(0, "leave cup\n");
    club.poll();
    // p1 confirms the sign-up and p0 the leave, while p2 asks to join.
    club.players[1]
        .reply(&club.inbox, "confirm:", "accept")
        .unwrap();
    club.players[0]
        .reply(&club.inbox, "confirm:", "accept")
        .unwrap();
    club.send(2, "join cup\n");
    swept(
        "a sign-up and a leave confirmed, a sign-up asked",
        &mut club,
    );
}
