//! `[site]` in pbem.toml: each poll that changed something
//! brings the web archive up to date, rewriting only the pages of the
//! games that changed and the lists they are on.

use crate::common;

use common::club::Club;
use std::path::Path;

fn page_text(dir: &Path, id: &str) -> String {
    std::fs::read_to_string(dir.join("games").join(format!("{id}.html"))).unwrap_or_default()
}

#[test]
fn a_poll_keeps_the_site_current() {
    let www = tempfile::tempdir().unwrap();
    let dir = www.path().join("site");
    let at = dir.display().to_string();
    let mut t = Club::with_settings(
        &[("Alice", "alice@example.org"), ("Bob", "bob@example.org")],
        move |s| format!("{s}\n[site]\ndir = \"{at}\"\n"),
    );
    t.send(0, "challenge embed bob@example.org first\n");
    let log = t.poll();
    assert!(
        log.contains("site games=0"),
        "a challenge is no game: {log}"
    );
    let id = t.last_game(1);
    let log = t.say(1, &id, "accept\n");
    assert!(log.contains("site games=1"), "{log}");
    let page = page_text(&dir, &id);
    assert!(page.contains("after 0 moves"), "{page}");
    assert!(dir.join("index.html").is_file());
    // A second game, then a move in the first: only what changed.
    t.send(1, "challenge dragons-teeth alice@example.org\n");
    t.poll();
    let other = t.last_game(0);
    t.say(0, &other, "accept\n");
    let other_page = dir.join("games").join(format!("{other}.html"));
    let before = std::fs::metadata(&other_page).unwrap().modified().unwrap();
    let embed = t.pbem.record(&id);
    assert!(embed.contains("[players]"), "{embed}");
    let log = t.say(0, &id, "moves\n");
    assert!(log.contains("site"), "{log}");
    // Asking for the moves changes no record: nothing remade.
    assert!(log.contains("remade=0"), "{log}");
    let r = pbem::record::replay::<pbem_engine::games::embed::Embed>(&t.record(&id)).unwrap();
    let (mv, _) = pbem_engine::game::listed_moves(r.position())[0].clone();
    let text = pbem_engine::game::canonical(r.position(), mv);
    let log = t.say(0, &id, &format!("{text}\n"));
    assert!(log.contains("remade=1"), "one game page: {log}");
    assert!(
        page_text(&dir, &id).contains("after 1 move"),
        "the move is on its page"
    );
    let after = std::fs::metadata(&other_page).unwrap().modified().unwrap();
    assert_eq!(before, after, "the other game's page is left alone");
    // Nothing ever shows an address or a key.
    for f in common::files(&dir) {
        let text = std::fs::read_to_string(&f).unwrap();
        assert!(!text.contains("@example.org"), "{}", f.display());
    }
}

#[test]
fn the_admins_commands_keep_the_site_current() {
    let _shared = common::lock::shared();
    let www = tempfile::tempdir().unwrap();
    let dir = www.path().join("site");
    let at = dir.display().to_string();
    let mut t = Club::with_settings(
        &[("Alice", "alice@example.org"), ("Bob", "bob@example.org")],
        move |s| format!("{s}\n[site]\ndir = \"{at}\"\n"),
    );
    let out = t.run(&[
        "new",
        "embed",
        "--player",
        "red=alice@example.org",
        "--player",
        "black=bob@example.org",
        "--first",
        "red",
        "--id",
        "em-admin",
    ]);
    let page = page_text(&dir, "em-admin");
    assert!(page.contains("after 0 moves"), "pbem new: {out}\n{page}");
    let r =
        pbem::record::replay::<pbem_engine::games::embed::Embed>(&t.record("em-admin")).unwrap();
    let (mv, _) = pbem_engine::game::listed_moves(r.position())[0].clone();
    let text = pbem_engine::game::canonical(r.position(), mv);
    let out = t.run(&["move", "em-admin", &text]);
    assert!(
        page_text(&dir, "em-admin").contains("after 1 move"),
        "pbem move: {out}"
    );
}
