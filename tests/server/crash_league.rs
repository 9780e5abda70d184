//! Crash safety of a tournament's poll ("the crash test
//! extended to a tournament poll"): `pbem poll` killed (SIGKILL) at
//! random moments, again and again, while it begins a tournament's first
//! round, and again while it enters the round's results and begins the
//! next; then run to the end. No game is made twice or lost, no mail is
//! sent twice or lost, every result is entered once.

use crate::common;
use crate::crash::{kill_polls, kills};

use pbem::config::{Config, INIT};
use pbem::mailbox::Maildir;
use pbem::record::Record;
use pbem::store::Store;
use pbem::store::league::TournamentFile;
use std::path::Path;

/// Sixteen players: eight games a round, so that kills land in the
/// middle of beginning one.
const PLAYERS: usize = 16;

fn pbem(config_path: &Path, args: &[&str]) -> String {
    let mut all: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    all.extend(["--config".as_ref(), config_path.as_os_str()]);
    common::pbem_ok(&all)
}

/// The texts of the mails `who` received, lines joined with spaces.
fn mails_of(sent: &Path, who: &str) -> Vec<String> {
    common::received_by(sent, who)
        .iter()
        .map(|r| r.text.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

fn count(mails: &[String], what: &str) -> usize {
    mails.iter().filter(|m| m.contains(what)).count()
}

#[test]
fn killed_tournament_polls_lose_and_double_nothing() {
    let _shared = common::lock::shared();
    let kills = kills();
    let dir = tempfile::tempdir().unwrap();
    let config_path = dir.path().join("pbem.toml");
    std::fs::write(&config_path, INIT).unwrap();
    let config = Config::load(&config_path).unwrap();
    let store = Store::open(&config.data).unwrap();
    let inbox = Maildir::open(config.inbox.maildir.as_ref().unwrap()).unwrap();
    let sent = dir.path().join("mail/sent");
    let who: Vec<String> = (0..PLAYERS).map(|i| format!("p{i}@example.org")).collect();
    make_tournaments(&config_path, &who);

    let (killed_begin, _) = kill_polls(&config_path, kills / 2);
    pbem(&config_path, &["poll"]);
    let t = store.tournament("crash").unwrap().unwrap();
    for name in ["crash", "crash1", "crash2", "crash3"] {
        let played = store.tournament(name).unwrap().unwrap().played.len();
        assert_eq!(played, 1, "{name}: round 1 begun once");
    }
    assert_eq!(
        store.game_ids().unwrap().len(),
        4 * PLAYERS / 2,
        "a round's games each, no more"
    );
    for k in 1..4 {
        for i in 0..PLAYERS {
            let mails = mails_of(&sent, &format!("t{k}p{i}@example.org"));
            assert_eq!(count(&mails, "The game begins"), 1);
            assert_eq!(count(&mails, &format!("Tournament crash{k}:")), 1);
        }
    }

    resign_round_one(&store, &inbox, &t, &who);
    let (killed_results, _) = kill_polls(&config_path, kills / 2);
    pbem(&config_path, &["poll"]);
    eprintln!(
        "tournament crash test: {killed_begin} polls killed beginning round 1, {killed_results} entering its results"
    );
    assert!(
        killed_begin + killed_results >= 1,
        "kills must land mid-poll"
    );

    let t = store.tournament("crash").unwrap().unwrap();
    assert_eq!(t.played.len(), 2, "round 2 begun once");
    assert!(
        t.played[0]
            .games
            .iter()
            .all(|g| g.outcome == Some(pbem_league::Outcome::FirstWins))
    );
    assert_eq!(
        store.game_ids().unwrap().len(),
        5 * PLAYERS / 2,
        "crash's two rounds' games, no more"
    );
    let out = pbem(&config_path, &["tournament", "show", "crash", "--json"]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let points: f64 = v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["points"].as_f64().unwrap())
        .sum();
    assert_eq!(points, (PLAYERS / 2) as f64, "each result once");
    check_mails_and_leftovers(&config.data, &store, &sent, &who);
}

/// Tournament `crash` (players `who`) and three more like it with players
/// of their own, their sign-up closed in the past: the next poll begins
/// each one's round 1 (more work for the kills to land in).
fn make_tournaments(config_path: &Path, who: &[String]) {
    for k in 0..4 {
        let name = if k == 0 {
            "crash".to_string()
        } else {
            format!("crash{k}")
        };
        let mut args = vec![
            "tournament",
            "new",
            name.as_str(),
            "--game",
            "mad-rooks",
            "--format",
            "swiss",
            "--rounds",
            "2",
        ];
        let players: Vec<String> = (0..PLAYERS)
            .map(|i| {
                if k == 0 {
                    who[i].clone()
                } else {
                    format!("t{k}p{i}@example.org")
                }
            })
            .collect();
        for p in &players {
            args.extend(["--player", p.as_str()]);
        }
        args.extend(["--signup-until", "2026-01-01T00:00:00Z"]);
        pbem(config_path, &args);
    }
}

/// Every game of round 1 of `t` resigned by its second player, all at
/// once into the inbox.
fn resign_round_one(store: &Store, inbox: &Maildir, t: &TournamentFile, who: &[String]) {
    for (b, g) in t.played[0].games.iter().enumerate() {
        let id = g.game.clone().unwrap();
        let rec = Record::parse(&id, &store.read_game(&id).unwrap().unwrap()).unwrap();
        let side = rec.first_side().other();
        let key = store.secrets(&id, rec.rules).unwrap().tokens[side]
            .clone()
            .unwrap();
        let loser = &who[g.second];
        let raw = format!(
            "From: {loser}\r\nTo: pbem+{id}.{key}@localhost\r\nSubject: re\r\nMessage-ID: <r{b}@example.org>\r\n\r\nresign\r\n"
        );
        inbox
            .deliver(&format!("17000000{b}.resign"), raw.as_bytes())
            .unwrap();
    }
}

/// Each of `who` got one game a round, one game-over mail and the
/// tables; nothing is left half-way and no key committed twice.
fn check_mails_and_leftovers(data: &Path, store: &Store, sent: &Path, who: &[String]) {
    for w in who {
        let mails = mails_of(sent, w);
        assert_eq!(count(&mails, "The game begins"), 2, "{w}: one game a round");
        assert_eq!(count(&mails, "The game is over"), 1, "{w}");
        // Round 1's pairings, a table after each result but the last,
        // and round 2's pairings with the last.
        assert_eq!(count(&mails, "Tournament crash:"), PLAYERS / 2 + 1, "{w}");
    }
    common::assert_nothing_left(store, data);
    let keys = common::committed_keys(data);
    let unique: std::collections::HashSet<&String> = keys.iter().collect();
    assert_eq!(keys.len(), unique.len(), "nothing committed twice");
}
