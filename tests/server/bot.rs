//! Playing pbem's bot by mail: `challenge GAME bot` begins a
//! game at once; the poll plays the bot's moves after the player's mail
//! is committed; the player gets the news as from any opponent, and no
//! mail goes to the bot. pbem runs as `pbem poll` over a Maildir with its
//! clock pinned (a fake clock: each poll a minute on).
//!
//! - Every game, from challenge to result: a player who moves at random
//!   against the bot, every bot move legal (the record replays after each
//!   poll), the result mailed, the bot's level rated like any player.
//! - The bot's moves are the same in two runs with a node budget.
//! - A poll with many bot games due keeps to `[bot] poll_ms` (plus one
//!   move), and the next poll plays the rest.
//! - A stranger gets at most three bot games at once.

use crate::common;

use common::club::Club;
use pbem::record::{self, Record};
use pbem::rules::Rules;
use pbem_engine::game::{self, Game, Side};

const ALICE: &str = "alice@example.org";

/// Alice alone, with pbem's bot thinking `settings` (a `[bot]` table).
fn table(settings: &str) -> Club {
    let settings = settings.to_string();
    Club::with_settings(&[("Alice", ALICE)], move |s| format!("{s}\n{settings}\n"))
}

/// A node budget and a seed: quick, and the same moves every time.
const NODES: &str = "[bot]\nnodes = 400\nseed = 1\n";

/// Alice challenges the bot and confirms it from her mailbox; the game's
/// id.
fn challenge(t: &mut Club, rules: Rules, order: &str) -> String {
    t.send(
        0,
        &format!("challenge {} bot level 1 {order}\n", rules.slug()),
    );
    let log = t.poll();
    assert!(log.contains("challenge"), "{log}");
    let id = t.last_game(0);
    assert!(
        t.pbem.store.bot_game(&id).unwrap().is_none(),
        "no game before the challenger confirms: {log}"
    );
    let log = t.say(0, &id, "accept");
    assert!(log.contains("confirmed"), "{log}");
    assert!(
        t.last_about(0, "The game begins").contains("bot"),
        "the bot is named"
    );
    assert!(t.pbem.store.bot_game(&id).unwrap().is_some(), "{log}");
    id
}

/// The record of `id` replayed: every line legal.
fn replayed<G: Game>(t: &Club, id: &str) -> record::Replayed<G> {
    let rec: Record = t.record(id);
    record::replay::<G>(&rec).unwrap_or_else(|e| panic!("{id} does not replay: {e}"))
}

/// Alice plays random legal moves against the bot until the game ends.
fn play_to_the_end<G: Game>() {
    let rules = G::RULES;
    let mut t = table(NODES);
    let id = challenge(&mut t, rules, "random");
    let bot_side = {
        let rec = t.record(&id);
        rec.players
            .side_where(|p| p.contains("+bot1@"))
            .expect("the bot plays a side")
    };
    let mut rng = fastrand::Rng::with_seed(7);
    let mut bot_moves = 0;
    for _ in 0..400 {
        let r = replayed::<G>(&t, &id);
        if r.end.is_some() {
            break;
        }
        let pos = r.position();
        assert_ne!(
            pos.turn(),
            bot_side,
            "{rules}: the bot is to move after a poll: {}",
            t.pbem.record(&id)
        );
        bot_moves = r.moves.len();
        let moves = game::listed_moves(pos);
        let (mv, _) = &moves[rng.usize(..moves.len())];
        let text = game::canonical(pos, *mv);
        let log = t.say(0, &id, &format!("{text}\n"));
        assert!(!log.contains("error"), "{rules}: {log}");
    }
    let r = replayed::<G>(&t, &id);
    if r.end.is_none() {
        t.say(0, &id, "resign\n");
    }
    let r = replayed::<G>(&t, &id);
    assert!(r.end.is_some(), "{rules}: the game ends");
    assert!(bot_moves > 0, "{rules}: the bot moved");
    assert!(
        t.last_about(0, "The game is over").contains("over"),
        "{rules}: Alice hears the result"
    );
    // The bot gets no mail; its level is rated.
    let sent_to_bot = common::files(&t.pbem.sent_folder())
        .iter()
        .any(|f| f.to_string_lossy().contains("+bot"));
    assert!(!sent_to_bot, "{rules}: no mail to the bot");
    let ratings = t.pbem.store.ratings(rules.slug()).unwrap();
    assert!(
        ratings
            .table
            .players
            .keys()
            .any(|k| k.starts_with("pbem+bot1@")),
        "{rules}: the bot's level is rated: {:?}",
        ratings.table.players.keys().collect::<Vec<_>>()
    );
    // The game over, the poll looks at it no more.
    t.poll();
    assert!(t.pbem.store.bot_game(&id).unwrap().is_none());
}

pbem_engine::game_tests!(_, G => play_to_the_end::<G>());

#[test]
fn the_same_node_budget_plays_the_same_moves() {
    let run = || {
        let mut t = table(NODES);
        let id = challenge(&mut t, Rules::Mad, "second");
        // Alice plays her first listed move, twice.
        for _ in 0..2 {
            let r = replayed::<pbem_engine::games::mad::Mad>(&t, &id);
            let pos = r.position();
            let (mv, _) = game::listed_moves(pos)[0].clone();
            let text = game::canonical(pos, mv);
            t.say(0, &id, &format!("{text}\n"));
        }
        let rec = t.record(&id);
        rec.lines
            .iter()
            .map(|l| format!("{:?}", l.entry))
            .collect::<Vec<_>>()
    };
    let (a, b) = (run(), run());
    assert!(a.len() >= 3, "{a:?}");
    assert_eq!(a, b);
}

#[test]
fn a_poll_keeps_to_its_think_time_and_the_next_plays_the_rest() {
    // Three players, each with a game where the bot moves first, thinking
    // 300 ms a move and at most 400 ms a poll.
    let mut t = Club::with_settings(
        &[
            ("A", "a@example.org"),
            ("B", "b@example.org"),
            ("C", "c@example.org"),
        ],
        |s| format!("{s}\n[bot]\nthink_ms = 300\npoll_ms = 400\n"),
    );
    for who in 0..3 {
        t.send(who, "challenge embed bot level 3 second\n");
    }
    t.poll();
    for who in 0..3 {
        let tag = format!("[pbem {}]", t.last_game(who));
        t.players[who].reply(&t.inbox, &tag, "accept").unwrap();
    }
    // A poll begins a move only while it has thought less than 400 ms:
    // the moves before its last thought less than that in all (each move
    // may stop short of its 300 ms), and the next polls play the rest.
    let thinks = |log: &str| -> Vec<u64> {
        log.lines()
            .filter(|l| l.contains("bot key="))
            .filter_map(|l| l.split("think_ms=").nth(1)?.split(' ').next()?.parse().ok())
            .collect()
    };
    let mut total = 0;
    for _ in 0..3 {
        let log = t.poll();
        let think = thinks(&log);
        let n = think.len();
        let before_last: u64 = think.iter().take(n.saturating_sub(1)).sum();
        assert!(before_last < 400, "a poll keeps to its think time: {log}");
        total += n;
        if total == 3 {
            break;
        }
        assert!(n >= 1, "each poll plays at least one move due: {log}");
    }
    assert_eq!(total, 3, "every game's first move");
    for who in 0..3 {
        let id = t.last_game(who);
        let rec = t.record(&id);
        assert_eq!(rec.lines.len(), 1, "{id}: the bot's first move");
        assert_eq!(rec.first_side(), Side::A);
    }
}

#[test]
fn one_mailbox_gets_three_bot_games_at_a_time_whatever_its_tags() {
    let mut t = Club::with_settings(
        &[
            ("Alice", ALICE),
            ("Alice", "Alice+Second@Example.org"),
            ("Bob", "bob@example.org"),
        ],
        |s| format!("{s}\n{NODES}\n"),
    );
    for _ in 0..3 {
        t.send(0, "challenge dragons-teeth bot\n");
    }
    t.poll();
    t.confirm_all(0);
    assert_eq!(t.pbem.store.bot_game_ids().unwrap().len(), 3);
    // The same mailbox under a tag and another case is the same player.
    t.send(1, "challenge dragons-teeth bot\n");
    t.poll();
    assert!(
        t.last_about(1, "games against pbem's bot in play")
            .contains("as many as one player may"),
        "{:?}",
        t.players[1].received.last()
    );
    assert_eq!(t.pbem.store.bot_game_ids().unwrap().len(), 3);
    // Another player is not held back by them.
    t.send(2, "challenge dragons-teeth bot\n");
    t.poll();
    t.confirm_all(2);
    assert_eq!(t.pbem.store.bot_game_ids().unwrap().len(), 4);
}

#[test]
fn a_move_whose_mails_were_lost_is_sent_again_not_played_again() {
    // The bot moves first; then its key is taken out of the processed
    // log, as a crash between the record and the commit leaves it.
    let mut t = table(NODES);
    let id = challenge(&mut t, Rules::Embed, "second");
    let rec = t.record(&id);
    assert_eq!(rec.lines.len(), 1, "the bot's first move");
    let news = t.last_about(0, "to play").to_string();
    let processed = t.pbem.config.data.join("processed");
    let mut dropped = 0;
    for f in common::files(&processed) {
        let text = std::fs::read_to_string(&f).unwrap();
        let kept: String = text
            .lines()
            .filter(|l| !l.starts_with("bot:"))
            .map(|l| format!("{l}\n"))
            .collect();
        dropped += text.lines().count() - kept.lines().count();
        std::fs::write(&f, kept).unwrap();
    }
    assert_eq!(dropped, 1, "the bot's one key");
    let before = t.players[0].received.len();
    let log = t.poll();
    assert_eq!(t.record(&id).lines.len(), 1, "not played twice: {log}");
    assert_eq!(t.players[0].received.len(), before + 1, "{log}");
    assert_eq!(t.last_about(0, "to play"), news, "the same news again");
    // And once only.
    t.poll();
    assert_eq!(t.players[0].received.len(), before + 1);
}

#[test]
fn the_bot_takes_on_a_hundred_games_in_all() {
    let mut t = table(NODES);
    for i in 0..pbem::adjudicate::MAX_BOT_GAMES_IN_ALL {
        let game = pbem::store::bots::BotGame {
            level: 1,
            player: format!("p{i}@example.org"),
            source: None,
            nonce: String::new(),
        };
        t.pbem
            .store
            .write_bot_game(&format!("embed-busy{i}"), &game)
            .unwrap();
    }
    t.send(0, "challenge embed bot\n");
    t.poll();
    assert!(
        t.last_about(0, "pbem's bot is playing")
            .contains("100 games, as many as it takes on")
    );
    // Markers of games that are not there are cleared by the poll.
    assert!(t.pbem.store.bot_game_ids().unwrap().is_empty());
}

/// A series against the bot in a game whose sides swap from game to game
/// (Mad Rooks: white always moves first). Alice moves first in game 1, so
/// the bot opens game 2; it does so in the poll that ends game 1, here
/// with a move of its own (a game the bot's move begins is played in the
/// same poll, as one a player's mail begins), and Alice gets the news of
/// that opening move with the mails of the end.
#[test]
fn the_bot_opens_the_next_game_of_a_series_in_the_poll_that_ends_the_last() {
    use pbem_engine::games::mad_rooks::MadRooks;
    let mut t = table(NODES);
    let id = challenge(&mut t, Rules::MadRooks, "first series 3");
    let next = format!("{id}-2");
    let bot_side = t
        .record(&id)
        .players
        .side_where(|p| p.contains("+bot1@"))
        .expect("the bot plays a side");
    let mut rng = fastrand::Rng::with_seed(1);
    for _ in 0..400 {
        let r = replayed::<MadRooks>(&t, &id);
        if r.end.is_some() {
            break;
        }
        let pos = r.position();
        let moves = game::listed_moves(pos);
        let (mv, _) = &moves[rng.usize(..moves.len())];
        let text = game::canonical(pos, *mv);
        t.say(0, &id, &format!("{text}\n"));
    }
    let rec = t.record(&id);
    assert!(
        replayed::<MadRooks>(&t, &id).end.is_some(),
        "game 1 ends: {}",
        t.pbem.record(&id)
    );
    assert_eq!(
        rec.lines.last().and_then(|l| l.side),
        Some(bot_side),
        "the bot's move ends game 1 (the case of this test)"
    );
    // No poll since: game 2 exists, and the bot has opened it.
    let opened = t.record(&next);
    assert!(
        t.first_mover(&next).contains("+bot1@"),
        "the bot opens game 2"
    );
    assert_eq!(
        opened
            .lines
            .iter()
            .filter(|l| matches!(l.entry, record::Entry::Move(_)))
            .count(),
        1,
        "the bot's opening move of game 2 is played in the poll that ended game 1: {}",
        t.pbem.record(&next)
    );
    let told = t.players[0]
        .received
        .iter()
        .any(|r| r.subject.contains(&next) && r.text.contains("played"));
    assert!(told, "Alice hears of the bot's opening move of game 2");
}
