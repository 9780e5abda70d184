//! Crash safety of the bot's moves: `pbem poll` killed
//! (SIGKILL) at random moments, again and again, while it begins games
//! against the bot and plays the bot's first moves, and again while it
//! handles the players' replies and the bot's answers; then run to the
//! end. No game is made twice, no bot move is played twice or lost, no
//! mail is sent twice or lost.

use crate::common;
use crate::crash::{kill_polls, kills};

use common::files;
use pbem::config::{Config, INIT};
use pbem::demo::Player;
use pbem::mailbox::Maildir;
use pbem::record::{self, Record};
use pbem::store::Store;
use pbem_engine::game;
use pbem_engine::games::embed::Embed;
use std::path::Path;

/// Players, each with a game against the bot: enough work a poll that
/// kills land in the middle of it.
const PLAYERS: usize = 6;

fn poll(config_path: &Path) {
    let config = config_path.as_os_str();
    common::pbem_ok(&[
        "poll".as_ref(),
        "--quiet".as_ref(),
        "--config".as_ref(),
        config,
    ]);
}

/// How many of the mails `who` got hold `what`.
fn count(sent: &Path, who: &str, what: &str) -> usize {
    files(&sent.join(who).join("new"))
        .iter()
        .filter_map(|f| pbem::demo::Received::parse(&std::fs::read(f).unwrap()))
        .filter(|r| {
            r.text
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .contains(what)
        })
        .count()
}

/// Each player's one game: its id and record.
fn games(store: &Store) -> Vec<(String, Record)> {
    store
        .game_ids()
        .unwrap()
        .into_iter()
        .map(|id| {
            let text = store.read_game(&id).unwrap().unwrap();
            let rec = Record::parse(&id, &text).unwrap();
            (id, rec)
        })
        .collect()
}

#[test]
fn killed_bot_polls_lose_and_double_nothing() {
    let _shared = common::lock::shared();
    let kills = kills();
    let dir = tempfile::tempdir().unwrap();
    let config_path = dir.path().join("pbem.toml");
    // A node budget: each move takes the poll a while, the same each time.
    std::fs::write(
        &config_path,
        format!("{INIT}\n[bot]\nnodes = 20000\nseed = 3\n"),
    )
    .unwrap();
    let config = Config::load(&config_path).unwrap();
    let store = Store::open(&config.data).unwrap();
    let inbox = Maildir::open(config.inbox.maildir.as_ref().unwrap()).unwrap();
    let sent = dir.path().join("mail/sent");
    let mut players: Vec<Player> = (0..PLAYERS)
        .map(|i| Player::new(&format!("P{i}"), &format!("p{i}@example.org"), &sent))
        .collect();
    // Every player challenges the bot, which moves first, and confirms
    // it from their mailbox.
    for p in &mut players {
        p.send(
            &inbox,
            "pbem@localhost",
            "bot",
            "challenge embed bot level 3 second\n",
            None,
        )
        .unwrap();
    }
    poll(&config_path);
    for p in &mut players {
        p.check();
        p.reply(&inbox, "against pbem's bot?", "accept\n").unwrap();
    }
    let (killed_first, _) = kill_polls(&config_path, kills / 2);
    poll(&config_path);
    let played = games(&store);
    assert_eq!(played.len(), PLAYERS, "one game each, no more");
    for (id, rec) in &played {
        assert_eq!(rec.lines.len(), 1, "{id}: the bot's first move, once");
    }
    // Every player answers the bot's move with their first legal move.
    for p in &mut players {
        p.check();
        let id = p
            .received
            .last()
            .map(|r| {
                r.subject
                    .trim_start_matches("[pbem ")
                    .chars()
                    .take_while(|c| *c != ']')
                    .collect::<String>()
            })
            .unwrap();
        let rec = Record::parse(&id, &store.read_game(&id).unwrap().unwrap()).unwrap();
        let r = record::replay::<Embed>(&rec).unwrap();
        let (mv, _) = game::listed_moves(r.position())[0].clone();
        let text = game::canonical(r.position(), mv);
        p.reply(&inbox, &format!("[pbem {id}]"), &format!("{text}\n"))
            .unwrap();
    }
    let (killed_second, _) = kill_polls(&config_path, kills / 2);
    poll(&config_path);
    eprintln!(
        "bot crash test: {killed_first} polls killed beginning the games, {killed_second} answering the replies"
    );
    assert!(
        killed_first + killed_second >= 1,
        "kills must land mid-poll"
    );
    for (id, rec) in games(&store) {
        assert_eq!(
            rec.lines.len(),
            3,
            "{id}: bot, player, bot: {:?}",
            rec.lines
        );
        record::replay::<Embed>(&rec).unwrap_or_else(|e| panic!("{id}: {e}"));
    }
    for p in &players {
        let who = p.address.as_str();
        assert_eq!(count(&sent, who, "The game begins"), 1, "{who}");
        // The news of the bot's first move and of its answer, once each.
        assert_eq!(count(&sent, who, "It is your move"), 2, "{who}");
    }
    assert!(
        files(&sent)
            .iter()
            .all(|f| !f.to_string_lossy().contains("+bot")),
        "no mail to the bot"
    );
    common::assert_nothing_left(&store, &config.data);
    let keys = common::committed_keys(&config.data);
    let unique: std::collections::HashSet<&String> = keys.iter().collect();
    assert_eq!(keys.len(), unique.len(), "nothing committed twice");
    assert_eq!(store.bot_game_ids().unwrap().len(), PLAYERS);
}
