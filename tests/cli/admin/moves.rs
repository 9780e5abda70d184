//! `pbem move` (tests/cli/admin.rs): plays for the side to move and tells
//! both players, refuses an illegal move and a record outside the data
//! folder, and plays a whole game.

use super::*;

#[test]
fn move_plays_for_the_side_to_move_and_tells_both_players() {
    let site = Site::new();
    site.new_bz("bz-adm1");
    let o = site.run_at("2026-11-20T11:00:00Z", &["move", "bz-adm1", "58 - 50"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let board = stdout(&o);
    assert!(
        board.starts_with("Boom & Zoom: move 2, black to play."),
        "{board}"
    );
    assert!(
        board.contains("|[R3]|") && board.contains("Last move: 58-50"),
        "{board}"
    );

    // The record has the move, canonical, for red, at the pinned time.
    let text = site.record_text("bz-adm1");
    assert!(
        text.contains("1.   red    58-50          2026-11-20T11:00:00Z\n"),
        "{text}"
    );
    let rec = site.record("bz-adm1");
    assert_eq!(rec.lines.len(), 1);
    assert_eq!(rec.lines[0].side, Some(pbem::game::Side::B));
    assert_eq!(rec.lines[0].message_id, None);
    let path = site.data().join("games/bz-adm1.toml");
    let o = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .arg("validate")
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(stdout(&o), format!("{}: ok (1 moves, *)\n", path.display()));

    // Both players hear of it, each with their own key; Alice is to move.
    let keys = site.keys("bz-adm1");
    let to_alice = site.mails_to("alice@example.org");
    let to_bob = site.mails_to("bob@example.org");
    assert_eq!((to_alice.len(), to_bob.len()), (2, 2));
    let news = |mails: &[String]| -> String {
        mails
            .iter()
            .find(|m| m.contains("played 58-50"))
            .unwrap()
            .clone()
    };
    let (a, b) = (news(&to_alice), news(&to_bob));
    for (raw, side) in [(&a, "black"), (&b, "red")] {
        let subject = header(raw, "Subject").unwrap();
        assert!(
            subject.starts_with("[pbem bz-adm1] Boom & Zoom:") && subject.contains(" vs "),
            "{subject}"
        );
        assert_eq!(
            header(raw, "Reply-To"),
            Some(format!("pbem <pbem+bz-adm1.{}@localhost>", keys[side]))
        );
    }
    assert!(
        a.contains("#2"),
        "Alice is told the move number to quote:\n{a}"
    );

    // The record file's path works as well as the id; black plays 1-9.
    let o = site.run_at(
        "2026-11-20T12:00:00Z",
        &["move", path.to_str().unwrap(), "1-9"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(site.record("bz-adm1").moves(), ["58-50", "1-9"]);
    assert_eq!(site.sent_count(), 6);
}

#[test]
fn move_refuses_an_illegal_move_and_changes_nothing() {
    let site = Site::new();
    site.new_bz("bz-adm1");
    let before = site.snapshot();
    let mails = site.sent_count();
    let cases: &[(&[&str], i32, &str)] = &[
        // Not red's: the refusal names red's towers.
        (
            &["bz-adm1", "1-9"],
            1,
            "pbem move: 1-9 is not a legal move for red: 1 holds a black tower, and it is red's turn (red towers: 57, 58, 59, 60, 61, 62, 63, 64)",
        ),
        // Not a line: the legal moves from 58 are listed.
        (
            &["bz-adm1", "58-35"],
            1,
            "pbem move: 58-35 is not a legal move for red: 58 and 35 are not in a straight line (row, column or diagonal) (see `pbem rules boom-and-zoom`, section Zooming); legal moves from 58: 58-34, 58-37, 58-42, 58-44, 58-49, 58-50, 58-51",
        ),
        (&["bz-adm1", "hello"], 1, "pbem move: `hello` is not a move"),
        (&["bz-nope", "58-50"], 2, "pbem move: no game bz-nope in "),
        (
            &["../bz-adm1", "58-50"],
            2,
            "pbem move: ../bz-adm1 is not a record in the data folder",
        ),
        (
            &["BZ-ADM1", "58-50"],
            2,
            "pbem move: `BZ-ADM1` is not a game id",
        ),
    ];
    for (args, code, message) in cases {
        let mut all = vec!["move"];
        all.extend_from_slice(args);
        let o = site.run(&all);
        assert_eq!(o.status.code(), Some(*code), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).starts_with(message),
            "{args:?}: expected `{message}` in\n{}",
            stderr(&o)
        );
        assert_eq!(stdout(&o), "", "{args:?}");
        assert_eq!(site.snapshot(), before, "{args:?} changed the data folder");
        assert_eq!(site.sent_count(), mails, "{args:?} sent mail");
    }
}

#[test]
fn move_never_touches_a_record_outside_the_data_folder() {
    let site = Site::new();
    site.new_bz("bz-adm1");
    // A copy of the record elsewhere, under the same name: `pbem move` on
    // it must not quietly play in the data folder's game instead.
    let elsewhere = site.dir.path().join("copy");
    fs::create_dir(&elsewhere).unwrap();
    let copy = elsewhere.join("bz-adm1.toml");
    fs::write(&copy, site.record_text("bz-adm1")).unwrap();
    let before = site.snapshot();
    let o = site.run(&["move", copy.to_str().unwrap(), "58-50"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("is not a record in the data folder"),
        "{}",
        stderr(&o)
    );
    assert_eq!(site.snapshot(), before);
    assert_eq!(
        fs::read_to_string(&copy).unwrap(),
        site.record_text("bz-adm1")
    );
}

#[test]
fn move_plays_a_whole_game_and_then_refuses() {
    // Embed's example game, all 27 moves played by the admin.
    let site = Site::new();
    let o = site.run(&[
        "new", "embed", "--black", ALICE, "--red", BOB, "--first", "black", "--id", "em-adm1",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let moves = pbem::demo::example_moves(pbem::rules::Rules::Embed);
    assert_eq!(moves.len(), 27);
    for m in &moves {
        let o = site.run(&["move", "em-adm1", m]);
        assert_eq!(o.status.code(), Some(0), "{m}: {}", stderr(&o));
    }
    let rec = site.record("em-adm1");
    assert_eq!(rec.moves(), moves);
    assert_eq!(rec.verdict().word(rec.rules), "black");
    assert!(rec.result.is_some());
    let path = site.data().join("games/em-adm1.toml");
    let o = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .arg("validate")
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(
        stdout(&o),
        format!("{}: ok (27 moves, black)\n", path.display())
    );

    // Both players: the start, 27 moves, the last of them the result.
    let to_alice = site.mails_to("alice@example.org");
    assert_eq!(to_alice.len(), 28);
    assert_eq!(site.mails_to("bob@example.org").len(), 28);
    let over: Vec<&String> = to_alice
        .iter()
        .filter(|m| m.contains("The game is over"))
        .collect();
    assert_eq!(over.len(), 1, "one result mail");
    assert!(over[0].contains("The game is over"), "{}", over[0]);

    let o = site.run(&["games"]);
    assert!(
        stdout(&o).contains("[black won (27 moves)]"),
        "{}",
        stdout(&o)
    );

    let before = site.snapshot();
    let o = site.run(&["move", "em-adm1", "1-9"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("pbem move: the game is over"),
        "{}",
        stderr(&o)
    );
    assert_eq!(site.snapshot(), before);
    assert_eq!(site.mails_to("alice@example.org").len(), 28);
}
