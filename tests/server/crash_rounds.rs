//! A tournament's next round begun by a poll killed at every durable step
//! (`PBEM_CRASH_AT=N`, see `pbem::store::crashpoint`): from a prepared
//! state, `pbem poll` runs with N = 1, 2, 3 ... until it runs through
//! without dying, each time from a fresh copy of the state, and after each
//! kill the next poll must finish the job as the poll never killed did:
//! the same tournament file, records, mails and committed keys; each game
//! of the new round made once and its key mailed to each of its players
//! once; nothing left in the inbox's `new/` or half-way in the data folder.
//!
//! The states: a round robin whose round 1 ends by resignations, a Swiss
//! likewise, a round ended by a loss on time, round 1 begun at the first
//! poll after sign-up, and a loss on time that leaves the next round
//! nothing but forfeits (the one after it begun at once). Each prints how
//! many kill points it swept (`-- --nocapture`).

use crate::common;

use common::club::Club;
use common::pbem_setup::PBEM;
use common::sweep::poll_ok;
use pbem::config::Config;
use pbem::record::Record;
use pbem::store::Store;
use pbem::store::league::TournamentFile;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

/// A pbem made ready for the poll the sweep kills.
struct Prepared {
    /// The pbem (its folder is the state each run starts from) and its
    /// players; not polled again.
    club: Club,
    /// The tournament.
    name: &'static str,
    /// pbem's clock for the poll swept.
    now: String,
    /// Rounds begun once that poll is through.
    rounds: usize,
    /// Standings mails the poll sends each player: one per result it
    /// enters (the last with the next round's pairings), or one with
    /// round 1's.
    standings: usize,
}

/// What a poll left, to be compared with what the poll never killed left.
#[derive(Debug)]
struct Outcome {
    tournament: TournamentFile,
    /// Every game's record.
    records: BTreeMap<String, String>,
    /// Each recipient's mails: subject and first line, sorted.
    mails: BTreeMap<String, Vec<(String, String)>>,
    /// The committed keys, sorted.
    keys: Vec<String>,
    /// The ratings file: each result rated once.
    ratings: Option<String>,
}

/// Kills the poll of `p` at every durable step, each from a fresh copy
/// of its state, and checks that the next poll mends all: how many points
/// it swept.
fn sweep(p: &Prepared) -> u64 {
    common::sweep::sweep(
        p.club.pbem.dir.path(),
        &p.now,
        p.name,
        |dir, _| check(p, dir),
        same,
    )
}

/// What a poll left after a kill is what the poll never killed left.
fn same(got: &Outcome, want: &Outcome, what: &str) {
    assert_eq!(got.tournament, want.tournament, "{what}: the tournament");
    assert_eq!(got.keys, want.keys, "{what}: the keys committed");
    assert_eq!(got.ratings, want.ratings, "{what}: the ratings");
    for (id, text) in &want.records {
        assert_eq!(got.records.get(id), Some(text), "{what}: game {id}");
    }
    assert_eq!(got.records.len(), want.records.len(), "{what}: the games");
    assert_eq!(got.mails, want.mails, "{what}: the mails");
}

/// Checks what a poll of `p` left in `dir` on its own terms (the rounds
/// begun, each game made and replaying, each new game's keys mailed once
/// to each of its players, nothing left over) and returns it.
fn check(p: &Prepared, dir: &Path) -> Outcome {
    let config = Config::load(&dir.join("pbem.toml")).unwrap();
    let store = Store::open(&config.data).unwrap();
    let inbox = config.inbox.maildir.clone().unwrap();
    assert!(
        common::files(&inbox.join("new")).is_empty(),
        "{}: mail left in the inbox",
        p.name
    );
    common::assert_nothing_left(&store, &config.data);
    let keys = common::committed_keys(&config.data);
    let mut unique = keys.clone();
    unique.dedup();
    assert_eq!(unique, keys, "{}: a key committed twice", p.name);
    let t = store.tournament(p.name).unwrap().unwrap();
    assert_eq!(t.played.len(), p.rounds, "{}: rounds begun", p.name);
    let before = p.club.tournament(p.name).played.len();
    let sent = dir.join("mail/sent");
    let mut records = BTreeMap::new();
    for (r, round) in t.played.iter().enumerate() {
        for g in round.games.iter() {
            let Some(id) = g.game.as_deref() else {
                continue;
            };
            let text = store.read_game(id).unwrap();
            let text = text.unwrap_or_else(|| panic!("{}: no game {id}", p.name));
            let rec = Record::parse(id, &text).unwrap();
            pbem::cli::validate_record(&rec).unwrap();
            assert_eq!(rec.match_info.tournament.as_deref(), Some(p.name));
            assert_eq!(rec.match_info.round, u32::try_from(r + 1).ok());
            if r >= before {
                keys_mailed_once(&store, &sent, &t, id, &rec);
            }
            records.insert(id.to_string(), text);
        }
    }
    assert_eq!(
        records,
        all_records(&store),
        "{}: games no round names",
        p.name
    );
    // No game half made: keys or a clock without a record.
    for folder in ["secrets", "clocks"] {
        for f in common::files(&config.data.join(folder)) {
            let id = f.file_stem().unwrap().to_string_lossy().into_owned();
            assert!(records.contains_key(&id), "{}: {folder} of {id}", p.name);
        }
    }
    let sent_before = p.club.pbem.sent_folder();
    let table = format!("Tournament {}:", p.name);
    for who in &t.players {
        let new = count(&sent, who, &table) - count(&sent_before, who, &table);
        assert_eq!(new, p.standings, "{}: standings mailed to {who}", p.name);
    }
    Outcome {
        tournament: t,
        records,
        mails: mails(&sent),
        keys,
        ratings: std::fs::read_to_string(config.data.join("ratings/mad-rooks.toml")).ok(),
    }
}

/// Each player of new game `id` got one "game begins" mail about it, whose
/// Reply-To holds their key.
fn keys_mailed_once(store: &Store, sent: &Path, t: &TournamentFile, id: &str, rec: &Record) {
    let secrets = store.secrets(id, rec.rules).unwrap();
    let (local, domain) = PBEM.split_once('@').unwrap();
    for (side, player) in rec.players.given() {
        assert!(t.players.contains(player), "{id}: {player} plays in it");
        let token = secrets.tokens[side].clone().expect("a key");
        let begins: Vec<_> = common::received_by(sent, &pbem::reply::address_of(player))
            .into_iter()
            .filter(|m| m.subject.contains(&format!("[pbem {id}]")))
            .filter(|m| m.text.starts_with("The game begins"))
            .collect();
        assert_eq!(begins.len(), 1, "{id}: {player} told once");
        assert_eq!(
            begins[0].reply_to.as_deref(),
            Some(format!("{local}+{id}.{token}@{domain}").as_str()),
            "{id}: {player}'s key"
        );
    }
}

fn all_records(store: &Store) -> BTreeMap<String, String> {
    store
        .game_ids()
        .unwrap()
        .into_iter()
        .map(|id| {
            let text = store.read_game(&id).unwrap().unwrap();
            (id, text)
        })
        .collect()
}

/// How many mails `who` got in the sink `sent` whose text holds `what`.
fn count(sent: &Path, who: &str, what: &str) -> usize {
    common::received_by(sent, &pbem::reply::address_of(who))
        .iter()
        .filter(|m| m.text.contains(what))
        .count()
}

/// Every mail sent under `sent`: each recipient's subjects and first
/// lines, sorted.
fn mails(sent: &Path) -> BTreeMap<String, Vec<(String, String)>> {
    common::sweep::mails(sent, |m| (m.subject.clone(), first_words(m.headline())))
}

/// A mail's first line; of the standings, only what it is about: a
/// result's standings mailed again (its mail handled again after a
/// crash) show the tournament as it is then, with the results and the
/// round entered after it in the same batch.
fn first_words(headline: &str) -> String {
    match headline.split_once(". ") {
        Some((about, _)) if headline.starts_with("Tournament ") => about.to_string(),
        _ => headline.to_string(),
    }
}

/// Tournament `name` of `club`'s players in mad-rooks, with `more`
/// options; round 1 begun.
fn tournament(club: &mut Club, name: &str, more: &[&str]) {
    let players: Vec<String> = club.players.iter().map(|p| p.address.clone()).collect();
    let mut args = vec!["tournament", "new", name, "--game", "mad-rooks"];
    args.extend(more);
    for a in &players {
        args.extend(["--player", a.as_str()]);
    }
    let out = club.run(&args);
    assert!(out.contains("round 1 begun"), "{out}");
}

/// The second player of boards `boards` of the round in play resigns, by
/// a reply into the inbox (not polled).
fn resign(club: &mut Club, name: &str, boards: std::ops::Range<usize>) {
    let t = club.tournament(name);
    for g in &t.played.last().unwrap().games[boards] {
        let id = g.game.clone().unwrap();
        club.players[g.second]
            .reply(&club.inbox, &format!("[pbem {id}]"), "resign")
            .unwrap();
    }
}

/// The clock of `club` `minutes` on: the time of the poll swept.
fn later(club: &mut Club, minutes: u32) -> String {
    club.minute += minutes;
    club.now()
}

/// Runs `p`'s sweep and prints its figures.
fn swept(what: &str, p: &Prepared) -> u64 {
    let start = Instant::now();
    let points = sweep(p);
    eprintln!(
        "tournament rounds crash sweep, {what}: {points} kill points, each mended ({:.1}s)",
        start.elapsed().as_secs_f64()
    );
    assert!(points > 0, "{what}: the poll reached no durable step");
    points
}

/// Four players; round 1's two games both resigned in one poll.
fn round_robin() -> Prepared {
    let mut club = Club::numbered(4);
    tournament(&mut club, "rr", &[]);
    resign(&mut club, "rr", 0..2);
    let now = later(&mut club, 1);
    Prepared {
        club,
        name: "rr",
        now,
        rounds: 2,
        standings: 2,
    }
}

#[test]
fn a_round_robin_round_begun_by_a_killed_poll_is_made_once() {
    let _shared = common::lock::shared();
    swept("round robin", &round_robin());
}

#[test]
fn a_swiss_round_begun_by_a_killed_poll_is_made_once() {
    let _shared = common::lock::shared();
    let mut club = Club::numbered(6);
    tournament(&mut club, "sw", &["--format", "swiss", "--rounds", "3"]);
    // One result entered before: the poll enters the last two.
    let first = club.tournament("sw").played[0].games[0].clone();
    let log = club.say(first.second, first.game.as_deref().unwrap(), "resign");
    assert!(log.contains("resigned"), "{log}");
    resign(&mut club, "sw", 1..3);
    let now = later(&mut club, 1);
    swept(
        "swiss",
        &Prepared {
            club,
            name: "sw",
            now,
            rounds: 2,
            standings: 2,
        },
    );
}

#[test]
fn a_round_ended_by_a_loss_on_time_in_a_killed_poll_is_made_once() {
    let _shared = common::lock::shared();
    let mut club = Club::numbered(4);
    tournament(&mut club, "tt", &["--clock", "1d"]);
    // Board 2 resigned; on board 1 the first to move never does.
    let other = club.tournament("tt").played[0].games[1].clone();
    club.say(other.second, other.game.as_deref().unwrap(), "resign");
    let now = later(&mut club, 2 * 24 * 60);
    swept(
        "loss on time",
        &Prepared {
            club,
            name: "tt",
            now,
            rounds: 2,
            standings: 1,
        },
    );
}

#[test]
fn round_one_begun_after_sign_up_by_a_killed_poll_is_made_once() {
    let _shared = common::lock::shared();
    let mut club = Club::numbered(4);
    let out = club.run(&[
        "tournament",
        "new",
        "su",
        "--game",
        "mad-rooks",
        "--signup-until",
        "30m",
    ]);
    assert!(out.contains("sign-up by mail"), "{out}");
    for who in 0..4 {
        club.send(who, "join su\n");
    }
    club.poll();
    for who in 0..4 {
        club.confirm(who);
    }
    assert_eq!(club.tournament("su").players.len(), 4);
    let now = later(&mut club, 31);
    swept(
        "round 1 after sign-up",
        &Prepared {
            club,
            name: "su",
            now,
            rounds: 1,
            standings: 1,
        },
    );
}

#[test]
fn a_round_of_forfeits_begun_by_a_killed_poll_begins_the_next_once() {
    let _shared = common::lock::shared();
    // Three players: round 1 one game, whose first mover never moves and
    // drops out; round 2 is then a forfeit (and a bye), round 3 begins.
    let mut club = Club::numbered(3);
    tournament(
        &mut club,
        "ff",
        &["--clock", "1d", "--drop-after-timeouts", "1"],
    );
    let now = later(&mut club, 2 * 24 * 60);
    let p = Prepared {
        club,
        name: "ff",
        now,
        rounds: 3,
        standings: 1,
    };
    swept("round of forfeits", &p);
    let reference = tempfile::tempdir().unwrap();
    common::copy_tree(p.club.pbem.dir.path(), reference.path());
    poll_ok(reference.path(), &p.now, "ff");
    let config = Config::load(&reference.path().join("pbem.toml")).unwrap();
    let t = Store::open(&config.data)
        .unwrap()
        .tournament("ff")
        .unwrap()
        .unwrap();
    assert!(
        t.played[1].games.iter().all(|g| g.game.is_none()),
        "round 2: forfeits only"
    );
    assert!(t.played[2].games.iter().all(|g| g.game.is_some()));
}

/// A tournament file on disk ahead of the games its new round names (as a
/// crash left it when the file reached the disk first): the next poll
/// makes them from the file's pairing and mails them, as the poll never
/// killed did.
#[test]
fn a_tournament_file_ahead_of_its_games_is_mended_by_the_next_poll() {
    let _shared = common::lock::shared();
    let p = round_robin();
    let before = p.club.pbem.dir.path();
    let reference = tempfile::tempdir().unwrap();
    common::copy_tree(before, reference.path());
    poll_ok(reference.path(), &p.now, "the poll never killed");
    let want = check(&p, reference.path());
    // The state before that poll, with what it wrote before the new
    // round's games: round 1's records, the ratings, the tournament.
    let ahead = tempfile::tempdir().unwrap();
    common::copy_tree(before, ahead.path());
    let t = &want.tournament;
    let mut written: Vec<String> = t.played[0]
        .games
        .iter()
        .map(|g| format!("games/{}.toml", g.game.as_deref().unwrap()))
        .collect();
    written.extend([
        "ratings/mad-rooks.toml".into(),
        "tournaments/rr.toml".into(),
    ]);
    // (No ratings file when no game of round 1 was rated.)
    for f in &written {
        let from = reference.path().join("data").join(f);
        if from.exists() {
            std::fs::copy(from, ahead.path().join("data").join(f)).unwrap();
        }
    }
    let r2 = t.played[1].games[0].game.clone().unwrap();
    assert!(!ahead.path().join(format!("data/games/{r2}.toml")).exists());
    poll_ok(ahead.path(), &p.now, "the poll after");
    same(&check(&p, ahead.path()), &want, "the poll after");
}
