//! Conditional moves by mail (`if THEIRS then MINE`), in every game:
//! two scripted players answer pbem's mails as a mail client's Reply
//! would, pbem runs as `pbem poll` over a Maildir.
//!
//! - A chain sent with a move plays the example game on: each answer of
//!   the opponent that a line names is answered in the same poll, the
//!   player told it was their conditional move, the opponent that it was
//!   one; the record is the example game's, move for move.
//! - Alternatives: one line per answer; another answer drops them all,
//!   and the player is told.
//! - Refused at entry, with the reason and the legal moves there; the
//!   other lines stand. `conditions` lists them, `cancel conditions`
//!   drops them, a draw offer clears them.
//! - Private: the opponent's mails, the record and the data folder's
//!   public files never hold a line that was not played.
//! - The bot honours them: lines for each of its moves, one of them
//!   played as soon as it moves.
//! - A poll killed at every durable step while a chain is played leaves,
//!   once run again, what the poll never killed left.

use crate::common;

use common::club::Club;
use pbem::record::Record;
use pbem::rules::Rules;

const ALICE: &str = "alice@example.org";
const BOB: &str = "bob@example.org";

fn table() -> Club {
    Club::new(&[("Alice", ALICE), ("Bob", BOB)])
}

/// Whether game `id` has a conditions file.
fn has_conditions(t: &Club, id: &str) -> bool {
    t.pbem
        .config
        .data
        .join("conditions")
        .join(format!("{id}.toml"))
        .exists()
}

/// The moves of game `id`'s record, as written.
fn moves(t: &Club, id: &str) -> Vec<String> {
    t.record(id).moves()
}

/// The legal moves after `played` in a game of `rules`, canonical.
fn legal_after(rules: Rules, played: &[String]) -> Vec<String> {
    let first = rules.side_name(pbem::game::Side::A);
    let mut text = format!(
        "format = 1\nrules = \"{}\"\nfirst = \"{first}\"\nmoves = \"\"\"\n",
        rules.slug()
    );
    for m in played {
        text.push_str(m);
        text.push('\n');
    }
    text.push_str("\"\"\"\n");
    let rec = Record::parse("x", &text).unwrap();
    pbem::with_game!(rules, G => {
        let r = pbem::record::replay::<G>(&rec).unwrap();
        pbem::game::listed_moves(r.position())
            .into_iter()
            .map(|(_, n)| n.canonical(rules.geometry()))
            .collect()
    })
}

/// Every mail `who` (a seat) received, its text's words joined by spaces.
fn texts(t: &Club, who: usize) -> Vec<String> {
    t.players[who]
        .received
        .iter()
        .map(|r| r.text.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// Text Alice's newest mail about game `id`.
fn newest(t: &Club, who: usize) -> String {
    texts(t, who).pop().unwrap_or_default()
}

fn chain_plays_on(rules: Rules) {
    let ex = pbem::demo::example_moves(rules);
    assert!(ex.len() >= 6, "{rules:?}: the example is long enough");
    let mut t = table();
    let id = t.begin(rules, "");
    let other = legal_after(rules, &ex[..1])
        .into_iter()
        .find(|m| *m != ex[1])
        .expect("another answer");
    let answer = legal_after(rules, &[ex[0].clone(), other.clone()])
        .into_iter()
        .next()
        .expect("an answer to it");
    let chain = format!("if {} then {} if {} then {}", ex[1], ex[2], ex[3], ex[4]);
    let alt = format!("if {other} then {answer}");
    let log = t.say(0, &id, &format!("{}\n{chain}\n{alt}\n", ex[0]));
    assert!(log.contains("played"), "{rules:?}: {log}");
    let set = newest(&t, 0);
    assert!(
        set.contains("conditional moves are set"),
        "{rules:?}: {set}"
    );
    assert!(
        set.contains(&format!("Line 1: {chain}")),
        "{rules:?}: {set}"
    );
    assert!(set.contains(&format!("Line 2: {alt}")), "{rules:?}: {set}");
    assert!(
        texts(&t, 1)
            .iter()
            .all(|m| !m.contains(&chain) && !m.contains(&alt)),
        "{rules:?}: Bob learns nothing of Alice's lines"
    );
    assert!(has_conditions(&t, &id));

    // Bob follows the chain: Alice's answers come at once.
    t.say(1, &id, &ex[1]);
    assert_eq!(moves(&t, &id), ex[..3], "{rules:?}");
    let bob = newest(&t, 1);
    assert!(
        bob.contains(&format!("answered {} at once with {}", ex[1], ex[2])),
        "{rules:?}: {bob}"
    );
    assert!(
        !bob.contains(&alt) && !bob.contains(&ex[4]),
        "{rules:?}: {bob}"
    );
    let alice = newest(&t, 0);
    assert!(
        alice.contains(&format!(
            "Your conditional move {} (move 3) was played at once, answering {}",
            ex[2], ex[1]
        )),
        "{rules:?}: {alice}"
    );
    assert!(
        alice.contains(&format!("Line 1: if {} then {}", ex[3], ex[4])),
        "{rules:?}: {alice}"
    );
    t.say(1, &id, &ex[3]);
    assert_eq!(moves(&t, &id), ex[..5], "{rules:?}");
    assert!(!has_conditions(&t, &id), "{rules:?}: the chain is done");
    let text = t.pbem.record(&id);
    assert!(
        !text.contains(" then ") && !text.contains(&alt),
        "{rules:?}: {text}"
    );
    // The web archive reads the records: no line of a set is in it.
    let site = tempfile::tempdir().unwrap();
    let config = t.pbem.config_path.to_string_lossy().into_owned();
    common::pbem_ok(&["site", &site.path().to_string_lossy(), "--config", &config]);
    let mut shown = false;
    for page in common::files(site.path()) {
        let html = std::fs::read_to_string(&page).unwrap_or_default();
        assert!(!html.contains(&alt), "{rules:?}: {}", page.display());
        assert!(!html.contains(&chain), "{rules:?}: {}", page.display());
        shown |= html.contains(&id) && html.contains(&ex[4]);
    }
    assert!(shown, "{rules:?}: the game's page is in the archive");
    let out = common::pbem_ok(&[
        "validate",
        &t.pbem
            .config
            .data
            .join(format!("games/{id}.toml"))
            .to_string_lossy(),
    ]);
    assert!(!out.is_empty());
}

#[test]
fn a_chain_plays_the_example_game_on_in_every_game() {
    let _shared = common::lock::shared();
    for rules in Rules::ALL {
        chain_plays_on(rules);
    }
}

#[test]
fn another_answer_drops_them_and_says_so_in_every_game() {
    let _shared = common::lock::shared();
    for rules in Rules::ALL {
        another_answer(rules);
    }
}

fn another_answer(rules: Rules) {
    let ex = pbem::demo::example_moves(rules);
    let mut t = table();
    let id = t.begin(rules, "");
    t.say(0, &id, &format!("{}\nif {} then {}\n", ex[0], ex[1], ex[2]));
    let other = legal_after(rules, &ex[..1])
        .into_iter()
        .find(|m| *m != ex[1])
        .unwrap();
    t.say(1, &id, &other);
    assert_eq!(moves(&t, &id), [ex[0].clone(), other.clone()]);
    let alice = newest(&t, 0);
    assert!(
        alice.contains(&format!(
            "Your conditional moves are dropped: none of them answered {other}"
        )),
        "{alice}"
    );
    assert!(
        !newest(&t, 1).contains("conditional"),
        "Bob is told nothing"
    );
    assert!(!has_conditions(&t, &id));
}

#[test]
fn a_bad_line_is_refused_with_the_legal_moves_and_the_others_stand_in_every_game() {
    let _shared = common::lock::shared();
    for rules in Rules::ALL {
        refused_at_entry(rules);
    }
}

fn refused_at_entry(rules: Rules) {
    let ex = pbem::demo::example_moves(rules);
    let mut t = table();
    let id = t.begin(rules, "");
    t.say(0, &id, &ex[0]);
    // Alice waits for Bob: lines alone. The first is Bob's move that
    // cannot be; the second a clash with the third.
    let good = format!("if {} then {}", ex[1], ex[2]);
    let clash_mine = legal_after(rules, &ex[..2])
        .into_iter()
        .find(|m| *m != ex[2])
        .unwrap();
    t.say(
        0,
        &id,
        &format!(
            "if 99-98 then {}\n{good}\nif {} then {clash_mine}\n",
            ex[2], ex[1]
        ),
    );
    let alice = newest(&t, 0);
    assert!(alice.contains("Not set: if 99-98"), "{alice}");
    assert!(
        alice.contains("your opponent could not play 99-98 there"),
        "{alice}"
    );
    assert!(alice.contains("The legal moves there:"), "{alice}");
    assert!(
        alice.contains(&format!("line 1 already answers {} with {}", ex[1], ex[2])),
        "{alice}"
    );
    assert!(alice.contains(&format!("Line 1: {good}")), "{alice}");
    // Listed on request, then cancelled.
    t.say(0, &id, "conditions");
    assert!(newest(&t, 0).contains(&format!("Line 1: {good}")));
    t.say(0, &id, "cancel conditions");
    assert!(newest(&t, 0).contains("Your conditional moves are cancelled"));
    t.say(1, &id, &ex[1]);
    assert_eq!(moves(&t, &id), ex[..2], "nothing played for Alice");
    // Not on one's own move.
    t.say(0, &id, &format!("if {} then {}", ex[3], ex[4]));
    let alice = newest(&t, 0);
    assert!(
        alice.contains("it is your move: conditional moves answer"),
        "{alice}"
    );
}

#[test]
fn a_draw_offer_clears_them() {
    let _shared = common::lock::shared();
    let rules = Rules::ALL[1];
    let ex = pbem::demo::example_moves(rules);
    let mut t = table();
    let id = t.begin(rules, "");
    t.say(0, &id, &format!("{}\nif {} then {}\n", ex[0], ex[1], ex[2]));
    t.say(1, &id, &format!("{}\ndraw\n", ex[1]));
    assert_eq!(moves(&t, &id), ex[..2], "the draw offer stops the answer");
    assert!(newest(&t, 0).contains("a draw offer, a resignation or a takeback ends them"));
    assert!(!has_conditions(&t, &id));
}

#[test]
fn the_bot_meets_a_line_for_each_of_its_moves() {
    let _shared = common::lock::shared();
    let rules = Rules::ALL[2];
    let mut t = table();
    t.send(
        0,
        &format!("challenge {} bot level 1 first\n", rules.slug()),
    );
    t.poll();
    t.confirm(0);
    let id = t.last_game(0);
    let first = legal_after(rules, &[])[0].clone();
    let mut body = format!("{first}\n");
    for theirs in legal_after(rules, std::slice::from_ref(&first))
        .into_iter()
        .take(12)
    {
        let mine = legal_after(rules, &[first.clone(), theirs.clone()])[0].clone();
        body.push_str(&format!("if {theirs} then {mine}\n"));
    }
    t.say(0, &id, &body);
    // The bot's turn comes in the poll: one of the lines answers it.
    for _ in 0..3 {
        if moves(&t, &id).len() >= 3 {
            break;
        }
        t.poll();
    }
    let played = moves(&t, &id);
    assert!(played.len() >= 3, "{played:?}");
    assert!(
        newest(&t, 0).contains("Your conditional move")
            || texts(&t, 0)
                .iter()
                .any(|m| m.contains("Your conditional move")),
        "{:?}",
        texts(&t, 0)
    );
}

#[test]
fn a_poll_killed_at_every_step_of_a_chain_plays_it_once() {
    let _shared = common::lock::shared();
    let rules = Rules::ALL[0];
    let ex = pbem::demo::example_moves(rules);
    let mut t = table();
    let id = t.begin(rules, "");
    t.say(
        0,
        &id,
        &format!(
            "{}\nif {} then {} if {} then {}\n",
            ex[0], ex[1], ex[2], ex[3], ex[4]
        ),
    );
    // Bob's answer waits in the inbox for the poll the sweep kills.
    t.players[1]
        .reply(&t.inbox, &format!("[pbem {id}]"), &ex[1])
        .unwrap();
    t.minute += 1;
    let now = t.now();
    let points = common::sweep::sweep(
        t.pbem.dir.path(),
        &now,
        "conditions",
        |dir, what| {
            let l = common::sweep::game_left(dir, &id, &["conditions"]);
            let rec = Record::parse(&id, &l.record).unwrap();
            assert_eq!(rec.moves(), ex[..3], "{what}: the answer played once");
            l
        },
        |got, want, what| assert_eq!(got, want, "{what}"),
    );
    eprintln!("conditional moves: {points} kill points swept");
    assert!(points > 3, "{points}");
}

#[test]
fn a_takeback_asked_clears_them() {
    let _shared = common::lock::shared();
    let rules = Rules::ALL[3];
    let ex = pbem::demo::example_moves(rules);
    let mut t = table();
    let id = t.begin(rules, "");
    t.say(0, &id, &format!("{}\nif {} then {}\n", ex[0], ex[1], ex[2]));
    t.say(0, &id, "takeback");
    assert!(
        newest(&t, 0).contains("a draw offer, a resignation or a takeback ends them"),
        "{}",
        newest(&t, 0)
    );
    assert!(!has_conditions(&t, &id));
    t.say(1, &id, "accept takeback");
    assert!(moves_standing(&t, &id).is_empty());
}

/// The moves of game `id` that stand (a move taken back does not).
fn moves_standing(t: &Club, id: &str) -> Vec<String> {
    let out = common::pbem_ok(&[
        "moves",
        "--json",
        &t.pbem
            .config
            .data
            .join(format!("games/{id}.toml"))
            .to_string_lossy(),
    ]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let taken = v["taken_back"].as_array().map_or(0, Vec::len);
    let all = moves(t, id);
    all[..all.len() - taken].to_vec()
}

#[test]
fn on_a_clock_the_answer_is_made_at_the_time_of_the_move_it_answers() {
    let _shared = common::lock::shared();
    let rules = Rules::ALL[4];
    let ex = pbem::demo::example_moves(rules);
    let mut t = table();
    let id = t.begin(rules, "3d");
    t.say(0, &id, &format!("{}\nif {} then {}\n", ex[0], ex[1], ex[2]));
    // Bob answers a day later: Alice's answer is hers at once, and the
    // clock runs for Bob from that moment.
    t.minute += 24 * 60;
    t.say(1, &id, &ex[1]);
    let rec = t.record(&id);
    assert_eq!(rec.moves(), ex[..3]);
    let (bob, alice) = (&rec.lines[1], &rec.lines[2]);
    assert_eq!(
        alice.time, bob.time,
        "made at the time of the move it answers"
    );
    let clock = t.pbem.store.clock(&id).unwrap().expect("a clock");
    let deadline = clock.state.deadline().expect("Bob's deadline");
    assert_eq!(
        deadline,
        bob.time.unwrap().to_utc() + chrono::Duration::days(3),
        "Bob's three days run from then"
    );
    assert!(
        newest(&t, 1).contains("your move #4 is due by"),
        "{}",
        newest(&t, 1)
    );
}
