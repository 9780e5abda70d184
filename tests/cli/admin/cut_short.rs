//! Admin commands cut short (tests/cli/admin.rs item 4): `pbem
//! new` and `pbem move` stopped where a crash used to lose their mails
//! leave no game half made and play no move twice.

use super::*;

/// An admin's command puts its record and its mails on
/// disk together. These tests stop `pbem new` and `pbem move` at the two
/// places where a crash used to lose the mails, with a fault of the data
/// folder at that point: the outbox's staging folder cannot be made
/// (before the record's rename), and the key cannot be committed (after
/// it). `tests/server/crash.rs` kills them at random points.
impl Site {
    /// The staging folder of an admin's command `key`.
    fn staging_of(&self, key: &str) -> PathBuf {
        let h = pbem::store::stable_hash(key.as_bytes());
        self.data().join(format!("outbox/staging/{h:016x}"))
    }

    /// Makes the file of `DATA/processed/` that commits `key` (its
    /// journal) a folder, which cannot be appended to; [`Site::unblock`]
    /// puts it back.
    fn block_key(&self, key: &str) -> PathBuf {
        let journal = pbem::store::stable_hash(key.as_bytes()) >> 60;
        let file = self
            .data()
            .join(format!("processed/recent-{journal:x}.log"));
        if file.exists() {
            fs::rename(&file, file.with_extension("saved")).unwrap();
        }
        fs::create_dir_all(&file).unwrap();
        file
    }

    fn unblock(&self, file: &Path) {
        fs::remove_dir(file).unwrap();
        if file.with_extension("saved").exists() {
            fs::rename(file.with_extension("saved"), file).unwrap();
        }
    }

    fn new_bz_with_clock(&self, id: &str) -> Output {
        self.run_new_bz(id, &["--clock", "3d"])
    }
}

#[test]
fn a_new_game_whose_mails_cannot_be_staged_is_not_started() {
    let site = Site::new();
    site.store();
    // A file where the command's staging folder goes.
    let blocker = site.staging_of("new:bz-adm1");
    fs::write(&blocker, "").unwrap();
    let o = site.new_bz_with_clock("bz-adm1");
    for folder in ["games", "secrets", "clocks"] {
        assert!(
            !site.data().join(folder).join("bz-adm1.toml").exists(),
            "{folder}: no game half made"
        );
    }
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("nothing was done"), "{}", stderr(&o));
    assert_eq!(site.sent_count(), 0);
    assert!(common::committed_keys(&site.data()).is_empty());

    // Mended, the same command starts the game, and the players hear once.
    fs::remove_file(&blocker).unwrap();
    let o = site.new_bz_with_clock("bz-adm1");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(site.mails_to("alice@example.org").len(), 1);
    assert_eq!(site.mails_to("bob@example.org").len(), 1);
}

#[test]
fn a_new_game_cut_short_after_its_record_is_mailed_by_the_next_poll() {
    let site = Site::new();
    site.store();
    let key_file = site.block_key("new:bz-adm1");
    let o = site.new_bz_with_clock("bz-adm1");
    assert_eq!(site.record("bz-adm1").lines.len(), 0);
    assert_eq!(site.sent_count(), 0);
    assert!(
        !common::files(&site.staging_of("new:bz-adm1")).is_empty(),
        "the mails are staged"
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the game is started, and its mails wait in the outbox"),
        "{}",
        stderr(&o)
    );

    // The next poll sends them: each player's key, once.
    site.unblock(&key_file);
    let o = site.run(&["poll"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let keys = site.keys("bz-adm1");
    for (who, side) in [("alice@example.org", "black"), ("bob@example.org", "red")] {
        let mails = site.mails_to(who);
        assert_eq!(mails.len(), 1, "{who}");
        assert_eq!(
            header(&mails[0], "Reply-To"),
            Some(format!("pbem <pbem+bz-adm1.{}@localhost>", keys[side]))
        );
    }
    assert_eq!(common::committed_keys(&site.data()), ["new:bz-adm1"]);
    assert!(common::files(&site.data().join("outbox")).is_empty());

    // The admin, unsure, runs the command again: nothing more is done.
    let before = site.snapshot();
    let o = site.new_bz_with_clock("bz-adm1");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("bz-adm1 is started already, between these players"),
        "{}",
        stdout(&o)
    );
    assert_eq!(site.snapshot(), before);
    assert_eq!(site.sent_count(), 2);
    // Other players, or another game, under that id: refused as before.
    let o = site.run(&[
        "new",
        "boom-and-zoom",
        "--black",
        ALICE,
        "--red",
        "carol@example.org",
        "--first",
        "red",
        "--clock",
        "3d",
        "--id",
        "bz-adm1",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn a_new_game_cut_short_before_its_record_leaves_its_id_free() {
    let site = Site::new();
    site.store();
    // A crash between the renames of the secrets and clock and that of
    // the record: what the fault after the record leaves, less the record.
    let key_file = site.block_key("new:bz-adm1");
    let o = site.new_bz_with_clock("bz-adm1");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    site.unblock(&key_file);
    fs::remove_file(site.data().join("games/bz-adm1.toml")).unwrap();
    let first = site.keys("bz-adm1");
    assert!(site.data().join("clocks/bz-adm1.toml").exists());

    // Run again, the command finds the id free (the half-made game's
    // secrets and clock are removed, its mails thrown away) and starts it.
    let o = site.new_bz_with_clock("bz-adm1");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("started bz-adm1"), "{}", stdout(&o));
    let keys = site.keys("bz-adm1");
    assert_ne!(keys, first, "new keys: the old ones were never mailed");
    for (who, side) in [("alice@example.org", "black"), ("bob@example.org", "red")] {
        let mails = site.mails_to(who);
        assert_eq!(mails.len(), 1, "{who}");
        assert!(mails[0].contains(&keys[side]));
    }
    assert!(common::files(&site.data().join("outbox")).is_empty());
}

#[test]
fn a_move_cut_short_is_mailed_once_and_never_played_twice() {
    let site = Site::new();
    site.new_bz("bz-adm1");
    let played = |site: &Site| site.record("bz-adm1").moves();

    // The mails cannot be staged: the move is not played.
    let blocker = site.staging_of("move:bz-adm1:1");
    fs::write(&blocker, "").unwrap();
    let o = site.run(&["move", "bz-adm1", "58-50"]);
    assert!(played(&site).is_empty(), "not played");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("nothing was done"), "{}", stderr(&o));
    assert_eq!(site.sent_count(), 2);
    fs::remove_file(&blocker).unwrap();
    let o = site.run(&["move", "bz-adm1", "58-50"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(played(&site), ["58-50"]);
    assert_eq!(site.sent_count(), 4);

    // The key cannot be committed: the move is in, its mails wait.
    let key_file = site.block_key("move:bz-adm1:2");
    let o = site.run(&["move", "bz-adm1", "1-9"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the move is played, and its mails wait in the outbox"),
        "{}",
        stderr(&o)
    );
    assert_eq!(played(&site), ["58-50", "1-9"]);
    assert_eq!(site.sent_count(), 4);
    site.unblock(&key_file);

    // The admin runs the same command again: refused, not played for
    // red, and the waiting mails go out with it.
    let o = site.run(&["move", "bz-adm1", "1-9"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with(
            "pbem move: 1-9 is the game's last move already (move 2, played by the admin at \
             Fri 20 Nov 2026, 10:00 UTC; its mails are sent or in the outbox); nothing done. To \
             play it again as move 3, add --ply 3"
        ),
        "{}",
        stderr(&o)
    );
    assert_eq!(played(&site), ["58-50", "1-9"]);
    for who in ["alice@example.org", "bob@example.org"] {
        let news: Vec<String> = site
            .mails_to(who)
            .into_iter()
            .filter(|m| m.contains("played 1-9"))
            .collect();
        assert_eq!(news.len(), 1, "{who}: the news of 1-9 once");
    }
    assert_eq!(site.sent_count(), 6);
    assert!(common::files(&site.data().join("outbox")).is_empty());

    // --ply: move 2 is 1-9 already, nothing done; not 1-10; move 4 is
    // not next; move 3 is.
    let before = site.snapshot();
    let o = site.run(&["move", "bz-adm1", "1-9", "--ply", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "bz-adm1: move 2 is 1-9 already; nothing done\n");
    for (args, message) in [
        (
            ["1-10", "2"],
            "pbem move: --ply 2: move 2 is 1-9 already, not 1-10\n",
        ),
        (
            ["50-42", "4"],
            "pbem move: --ply 4: the game is at move 3 (moves are numbered 1, 2, 3, ... for both sides)\n",
        ),
    ] {
        let o = site.run(&["move", "bz-adm1", args[0], "--ply", args[1]]);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert_eq!(stderr(&o), message);
    }
    assert_eq!(site.snapshot(), before);
    assert_eq!(site.sent_count(), 6);
    let o = site.run(&["move", "bz-adm1", "50-42", "--ply", "3"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(played(&site), ["58-50", "1-9", "50-42"]);
    assert_eq!(site.sent_count(), 8);
}
