//! The bot's analysis of a finished game by mail: the game that ends goes
//! into the analysis queue in the same batch, the game-over mail says the
//! analysis follows, the poll's bot step analyses it and mails each
//! player their largest swings once; `analysis` in the game's thread
//! answers with the whole of it (refused while the game is on, "on its
//! way" while it is queued). pbem runs as `pbem poll` over a Maildir with
//! its clock pinned.

use crate::common;

use common::club::Club;
use pbem::record;
use pbem::rules::Rules;
use pbem_engine::game;
use pbem_engine::games::embed::Embed;

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
    let a = pbem::store::analysis::StoredAnalysis::parse(&text).unwrap();
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
    if std::env::var_os("SHOW_ANALYSIS").is_some() {
        let swings = &t.players[0]
            .received
            .iter()
            .rev()
            .find(|r| r.text.contains("has gone through"))
            .unwrap();
        eprintln!(
            "=====\n{}\n{}\n=====\n{}\n{}",
            swings.subject,
            swings.text,
            t.players[1].received.last().unwrap().subject,
            reply
        );
        eprintln!("=====\n{}", t.last_about(0, "game over"));
    }
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
    // A think time of 1 ms: each poll analyses about one move.
    let mut t = table(3_000, 1);
    let id = begin(&mut t, 10);
    let log = t.say(0, &id, "resign\n");
    assert!(
        log.contains("fate=\"in part\"") || log.contains("in part"),
        "{log}"
    );
    assert_eq!(t.pbem.store.queued_analysis_ids().unwrap(), std::slice::from_ref(&id));
    t.say(1, &id, "analysis\n");
    let reply = t.last_about(1, "analysis");
    assert!(reply.contains("going through it"), "{reply}");
    // Poll on until it is done; one mail each, then no more.
    for _ in 0..40 {
        if t.pbem.store.queued_analysis_ids().unwrap().is_empty() {
            break;
        }
        t.poll();
    }
    assert!(t.pbem.store.queued_analysis_ids().unwrap().is_empty());
    t.poll();
    for who in 0..2 {
        assert_eq!(count(&t, who, SWINGS), 1);
    }
    // The same analysis as one done at once.
    let text = t.pbem.store.analysis_text(&id).unwrap().unwrap();
    let pieces = pbem::store::analysis::StoredAnalysis::parse(&text).unwrap();
    let rec = t.record(&id);
    let limits = pbem_engine::bot::Limits {
        think: pbem_engine::bot::Budget::Nodes(3_000),
        level: pbem_engine::bot::Level::MAX,
    };
    let whole = pbem_engine::bot::analyse::analyse(&rec, &limits, 1, &mut |_, _| {}).unwrap();
    let whole: Vec<_> = whole
        .plies
        .iter()
        .map(pbem::store::analysis::StoredPly::from)
        .collect();
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
    assert_eq!(Rules::Embed.slug(), "embed");
}
