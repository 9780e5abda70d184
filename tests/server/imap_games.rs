//! Every one of the eight games played whole against real mail servers:
//! each player is a real mailbox at the loopback Postfix and
//! Dovecot (`scripts/mailstack`). The players send over submission
//! (STARTTLS, AUTH); Postfix delivers into Dovecot; pbem reads its own
//! mailbox over IMAP (STARTTLS), moves what it has done to a folder, and
//! replies over submission (STARTTLS, AUTH); the players read pbem's
//! replies over IMAP (Alice with STARTTLS, Bob over IMAPS) and answer them
//! with the move numbers and reply addresses those mails carry.

use crate::common;

use common::mailstack::{PbemSide, StackRoom, nonce, parsed, stack};
use common::play::play_game;
use pbem::mailbox::imap::{Imap, Security};
use pbem::rules::Rules;
use std::time::Instant;

fn play_over_imap(rules: Rules) {
    let started = Instant::now();
    let s = stack();
    let tag = nonce();
    let dir = tempfile::tempdir().unwrap();
    let local = format!("pbem.{tag}");
    let address = s.address(&local);
    let server = StackRoom::server(s, dir.path(), &address, &s.imap_inbox(&address));
    let mut config = s.imap(&address, Security::Starttls);
    config.processed_folder = Some("done".into());
    let inbox = Imap::new(config);
    let (mut room, mut players) =
        StackRoom::new(s, &tag, &address, PbemSide::Imap(server, Box::new(inbox)));
    let id = play_game(&mut room, &mut players, rules);

    // pbem's INBOX is empty; every mail it handled is in "done", seen.
    let maildir = s.maildirs.join(&local);
    let in_inbox = parsed(s, &local, &|_| true);
    assert!(
        in_inbox.is_empty(),
        "{} mails left in the INBOX",
        in_inbox.len()
    );
    let done: Vec<_> = std::fs::read_dir(maildir.join(".done/cur"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    let plies = pbem::demo::example_moves(rules).len();
    assert_eq!(done.len(), plies + 2, "challenge, accept and each move");
    assert!(done.iter().all(|n| n.ends_with(",S")), "{done:?}");
    eprintln!(
        "{rules}: game {id}, {plies} moves over IMAP in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

pbem_engine::game_tests!(#[ignore = "needs the loopback mail stack (scripts/mailstack)"] rules, _G => {
    let _shared = crate::common::lock::shared();
    play_over_imap(rules);
});
