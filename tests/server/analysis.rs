//! The bot's analysis of a finished game by mail: the game that ends goes
//! into the analysis queue in the same batch, the game-over mail says the
//! analysis follows, the poll's bot step analyses it and mails each
//! player their largest swings once; `analysis` in the game's thread
//! answers with the whole of it (refused while the game is on, "on its
//! way" while it is queued). pbem runs as `pbem poll` over a Maildir with
//! its clock pinned.

use crate::common;

use common::club::Club;
use pbem::config::Config;
use pbem::record::{self, Record};
use pbem::store::Store;
use pbem::store::analysis::{StoredAnalysis, StoredPly};
use pbem_engine::game;
use pbem_engine::games::embed::Embed;
use std::collections::BTreeMap;
use std::path::Path;

const ALICE: &str = "alice@example.org";
const BOB: &str = "bob@example.org";

/// Alice and Bob, the analysis at `nodes` positions a move, the poll's
/// think time `poll_ms`.
fn table(nodes: u64, poll_ms: u64) -> Club {
    Club::with_settings(&[("Alice", ALICE), ("Bob", BOB)], move |s| {
        format!("{s}\n[bot]\nseed = 1\npoll_ms = {poll_ms}\nanalysis_nodes = {nodes}\n")
    })
}

/// Alice challenges Bob to Embed, moving first; Bob accepts; they play
/// `moves` moves, each the first legal move. The game's id.
fn begin(t: &mut Club, moves: usize) -> String {
    t.send(0, &format!("challenge embed {BOB} first\n"));
    t.poll();
    let id = t.last_game(1);
    t.say(1, &id, "accept");
    for i in 0..moves {
        let rec = t.record(&id);
        let r = record::replay::<Embed>(&rec).unwrap();
        if r.end.is_some() {
            break;
        }
        let pos = r.position();
        let (mv, _) = game::listed_moves(pos)[0].clone();
        let text = game::canonical(pos, mv);
        let log = t.say(i % 2, &id, &format!("{text}\n"));
        assert!(log.contains("played"), "{log}");
    }
    id
}

/// The first words of the mail of the analysis.
const SWINGS: &str = "pbem's bot has gone through your game";

/// How many mails player `who` got whose text holds `what`.
fn count(t: &Club, who: usize, what: &str) -> usize {
    t.players[who]
        .received
        .iter()
        .filter(|r| {
            r.text
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .contains(what)
        })
        .count()
}

#[test]
fn a_finished_game_brings_each_player_their_swings_once_and_the_table_on_request() {
    let _shared = common::lock::shared();
    let mut t = table(2_000, 20_000);
    let id = begin(&mut t, 6);
    // While the game is on: refused, and nothing queued.
    t.say(0, &id, "analysis\n");
    let refused = t.last_about(0, "analysis");
    assert!(refused.contains("still in play"), "{refused}");
    assert!(t.pbem.store.queued_analysis_ids().unwrap().is_empty());
    // Bob resigns: the game-over mail says the analysis follows, and the
    // same poll's bot step sends it.
    let log = t.say(1, &id, "resign\n");
    assert!(log.contains("analysis key=analysis:"), "{log}");
    let over = t.last_about(0, "game over");
    assert!(over.contains("your largest swings follow"), "{over}");
    for who in 0..2 {
        assert_eq!(count(&t, who, SWINGS), 1, "{log}");
        let mail = t.last_about(who, SWINGS);
        assert!(mail.contains("move by move"), "{mail}");
        assert!(
            mail.contains("reply to this mail with the single word `analysis`"),
            "{mail}"
        );
    }
    assert!(t.last_about(0, SWINGS).contains("against Bob"));
    assert!(t.pbem.store.queued_analysis_ids().unwrap().is_empty());
    let text = t.pbem.store.analysis_text(&id).unwrap().unwrap();
    let a = StoredAnalysis::parse(&text).unwrap();
    assert!(a.complete() && a.total == 6, "{text}");
    // Polled again: no second mail.
    t.poll();
    t.poll();
    for who in 0..2 {
        assert_eq!(count(&t, who, SWINGS), 1);
    }
    // `analysis` now: the table, a row a move.
    let log = t.say(1, &id, "analysis\n");
    assert!(log.contains("was sent the analysis"), "{log}");
    let reply = t.players[1].received.last().unwrap().text.clone();
    assert!(reply.contains("no.  move"), "{reply}");
    for ply in &a.plies {
        let row = reply
            .lines()
            .find(|l| l.split_whitespace().next() == Some(&ply.ply.to_string()))
            .unwrap_or_else(|| panic!("no row of move {}: {reply}", ply.ply));
        assert!(row.contains(&ply.played), "{row}");
    }
    for line in reply.lines() {
        assert!(line.chars().count() <= 72, "{line:?}");
    }
}

#[test]
fn an_analysis_longer_than_a_polls_think_time_goes_on_next_poll_and_says_it_is_on_its_way() {
    let _shared = common::lock::shared();
    // A think time of 1 ms, and moves of 20,000 positions (a few ms
    // each, mostly): a poll begins no move past its think time, so the
    // game takes several polls.
    let mut t = table(20_000, 1);
    let id = begin(&mut t, 10);
    let log = t.say(0, &id, "resign\n");
    assert!(
        log.contains("fate=\"in part\"") || log.contains("in part"),
        "{log}"
    );
    assert_eq!(
        t.pbem.store.queued_analysis_ids().unwrap(),
        std::slice::from_ref(&id)
    );
    t.say(1, &id, "analysis\n");
    let reply = t.last_about(1, "analysis");
    assert!(reply.contains("going through it"), "{reply}");
    // Poll on until it is done; one mail each, then no more.
    let mut parts = vec![done_of(&log).unwrap_or(0)];
    for _ in 0..40 {
        if t.pbem.store.queued_analysis_ids().unwrap().is_empty() {
            break;
        }
        let log = t.poll();
        parts.extend(done_of(&log));
    }
    assert!(parts.len() >= 2, "over several polls: {parts:?}");
    assert!(parts.windows(2).all(|w| w[0] <= w[1]), "{parts:?}");
    assert!(t.pbem.store.queued_analysis_ids().unwrap().is_empty());
    t.poll();
    for who in 0..2 {
        assert_eq!(count(&t, who, SWINGS), 1);
    }
    // The same analysis as one done at once.
    let text = t.pbem.store.analysis_text(&id).unwrap().unwrap();
    let pieces = StoredAnalysis::parse(&text).unwrap();
    let rec = t.record(&id);
    let limits = pbem_engine::bot::Limits {
        think: pbem_engine::bot::Budget::Nodes(20_000),
        level: pbem_engine::bot::Level::MAX,
    };
    let whole = pbem_engine::bot::analyse::analyse(&rec, &limits, 1, &mut |_, _| {}).unwrap();
    let whole: Vec<_> = whole.plies.iter().map(StoredPly::from).collect();
    assert_eq!(pieces.plies, whole);
}

#[test]
fn a_damaged_analysis_is_made_again_and_said() {
    let _shared = common::lock::shared();
    let mut t = table(1_000, 20_000);
    let id = begin(&mut t, 4);
    t.say(0, &id, "resign\n");
    let good = t.pbem.store.analysis_text(&id).unwrap().unwrap();
    let path = t
        .pbem
        .config
        .data
        .join("analysis")
        .join(format!("{id}.txt"));
    std::fs::write(&path, "pbem-analysis 1\ngame x\nmoves zz\n").unwrap();
    // Asked for, it is queued again, made again (the error logged), and
    // the same as before.
    let log = t.say(0, &id, "analysis\n");
    assert!(
        t.last_about(0, "going through it")
            .contains("as soon as it is done")
    );
    assert!(log.contains("analysis-damaged"), "{log}");
    assert!(log.contains("does not read"), "{log}");
    assert_eq!(t.pbem.store.analysis_text(&id).unwrap().unwrap(), good);
}

/// The moves analysed so far, as a poll's log says of a game in part.
fn done_of(log: &str) -> Option<usize> {
    log.lines()
        .filter(|l| l.contains("analysis game=") && l.contains("in part"))
        .find_map(|l| l.split(" done=").nth(1)?.split(' ').next()?.parse().ok())
}

/// What a poll of the sweep left: each player's mails, the analysis,
/// the queue, the keys committed; checked on its own terms: nothing half
/// way, no key twice, one mail of the analysis to each player.
type Outcome = (
    BTreeMap<String, Vec<(String, String)>>,
    Option<String>,
    Vec<String>,
    Vec<String>,
);

fn check(dir: &Path, what: &str) -> Outcome {
    let config = Config::load(&dir.join("pbem.toml")).unwrap();
    let store = Store::open(&config.data).unwrap();
    common::assert_nothing_left(&store, &config.data);
    let mut keys = common::committed_keys(&config.data);
    keys.sort();
    let mut unique = keys.clone();
    unique.dedup();
    assert_eq!(unique, keys, "{what}: a key committed twice");
    let mails = common::sweep::mails(&dir.join("mail/sent"), |m| {
        (m.subject.clone(), m.headline().to_string())
    });
    for (who, got) in &mails {
        let swings = got
            .iter()
            .filter(|(_, h)| h.starts_with("pbem's bot has gone"))
            .count();
        assert_eq!(swings, 1, "{what}: {who}'s mails of the analysis: {got:?}");
    }
    let id = store.game_ids().unwrap().pop().unwrap();
    let analysis = store.analysis_text(&id).unwrap();
    (mails, analysis, store.queued_analysis_ids().unwrap(), keys)
}

#[test]
fn a_poll_killed_anywhere_in_an_analysis_mails_it_once_and_whole() {
    let _shared = common::lock::shared();
    // No think time: the game ends and waits in the queue.
    let mut t = table(500, 0);
    let id = begin(&mut t, 4);
    t.say(1, &id, "resign\n");
    assert_eq!(
        t.pbem.store.queued_analysis_ids().unwrap(),
        std::slice::from_ref(&id)
    );
    assert_eq!(count(&t, 0, SWINGS), 0);
    // With think time, the next poll analyses it and mails it.
    let config = t.pbem.dir.path().join("pbem.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, text.replace("poll_ms = 0", "poll_ms = 20000")).unwrap();
    t.minute += 1;
    let points = common::sweep::sweep(
        t.pbem.dir.path(),
        &t.now(),
        "analysis",
        check,
        |got, want, what| {
            assert_eq!(got, want, "{what}");
            assert!(
                got.1.is_some() && got.2.is_empty(),
                "{what}: analysed and out of the queue"
            );
        },
    );
    eprintln!("analysis crash sweep: {points} kill points, each mended");
    assert!(points > 2, "the poll reached the analysis's durable steps");
}

#[test]
fn the_stored_analysis_of_every_example_game_names_legal_moves_only() {
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine/src/games");
    let limits = pbem_engine::bot::Limits {
        think: pbem_engine::bot::Budget::Nodes(300),
        level: pbem_engine::bot::Level::MAX,
    };
    let mut seen = 0;
    for file in common::files(&games) {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".toml") || name.ends_with("-in-play.toml") {
            continue;
        }
        let rec = Record::parse(&name, &std::fs::read_to_string(&file).unwrap()).unwrap();
        // Made in pieces of three moves, as polls would, then read back.
        let mut stored = StoredAnalysis {
            id: "g".into(),
            moves: pbem::store::analysis::moves_hash(&rec),
            nodes: 300,
            seed: 0,
            total: 0,
            plies: Vec::new(),
        };
        loop {
            let from = stored.plies.len();
            let part =
                pbem_engine::bot::analyse::analyse_from(&rec, &limits, 0, from, &mut |d, _| {
                    d < from + 3
                })
                .unwrap();
            if part.plies.is_empty() {
                break;
            }
            stored.plies.extend(part.plies.iter().map(StoredPly::from));
        }
        stored.total = stored.plies.len();
        let back = StoredAnalysis::parse(&stored.to_text()).unwrap();
        assert_eq!(back, stored, "{name}");
        assert!(back.complete() && back.of(&rec), "{name}");
        pbem::with_game!(rec.rules, G => {
            let r = record::replay::<G>(&rec).unwrap();
            assert_eq!(back.total, r.moves.len(), "{name}");
            for p in &back.plies {
                let pos = &r.positions[p.ply - 1];
                let legal: Vec<String> = game::listed_moves(pos)
                    .into_iter()
                    .map(|(mv, _)| game::canonical(pos, mv))
                    .collect();
                assert!(legal.contains(&p.best), "{name}, move {}: best {} not legal", p.ply, p.best);
                assert!(legal.contains(&p.played), "{name}, move {}: {}", p.ply, p.played);
            }
        });
        seen += 1;
    }
    assert_eq!(seen, 8, "the eight games' example records");
}
