//! A takeback agreed by a poll killed at every durable step
//! (`PBEM_CRASH_AT=N`, see `pbem::store::crashpoint`): Alice moves and
//! asks to take the move back, Bob's `accept takeback` waits in the
//! inbox; each run from a fresh copy of that state, killed at step N,
//! then polled twice, must leave what the poll never killed left: the
//! record (the move taken back once, its line kept), the mails, the
//! keys committed. Prints how many points it swept (`-- --nocapture`).

use crate::common;

use common::club::Club;
use pbem::record::Record;
use pbem::rules::Rules;

#[test]
fn a_poll_killed_at_every_step_of_a_takeback_takes_it_back_once() {
    let _shared = common::lock::shared();
    let rules = Rules::ALL[1];
    let ex = pbem::demo::example_moves(rules);
    let mut t = Club::new(&[("Alice", "alice@example.org"), ("Bob", "bob@example.org")]);
    let id = t.begin(rules, "");
    t.say(0, &id, &ex[0]);
    t.say(0, &id, "takeback");
    t.players[1]
        .reply(&t.inbox, &format!("[pbem {id}]"), "accept takeback")
        .unwrap();
    t.minute += 1;
    let now = t.now();
    let points = common::sweep::sweep(
        t.pbem.dir.path(),
        &now,
        "takeback",
        |dir, what| {
            let l = common::sweep::game_left(dir, &id, &[]);
            let rec = Record::parse(&id, &l.record).unwrap();
            pbem::cli::validate_record(&rec).unwrap();
            assert_eq!(
                pbem::record::plies(&rec.lines),
                0,
                "{what}: the move taken back, once"
            );
            assert_eq!(rec.moves(), ex[..1], "{what}: its line kept");
            l
        },
        |got, want, what| assert_eq!(got, want, "{what}"),
    );
    eprintln!("takeback: {points} kill points swept");
    assert!(points > 3, "{points}");
}
