//! `pbem site DIR`: the web archive made from a data folder
//! with a game played by mail (`pbem demo`), checked as files and in a
//! real browser (headless Chromium: the page's rendered DOM with its
//! script run, and screenshots of two moves that must differ).

use crate::common::{self, browser};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn pbem(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(args)
        .env_remove("PBEM_CONFIG")
        .output()
        .unwrap()
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A data folder with one Guerrilla Checkers game played to its end by
/// mail; its config file.
fn played(dir: &Path) -> PathBuf {
    let setup = dir.join("demo");
    ok(&pbem(&[
        "demo",
        "--dir",
        setup.to_str().unwrap(),
        "--game",
        "guerrilla-checkers",
    ]));
    setup.join("pbem.toml")
}

fn site(config: &Path, www: &Path, extra: &[&str]) -> String {
    let mut args = vec![
        "site",
        www.to_str().unwrap(),
        "--config",
        config.to_str().unwrap(),
    ];
    args.extend(extra);
    ok(&pbem(&args))
}

fn game_page(www: &Path) -> PathBuf {
    let games: Vec<PathBuf> = std::fs::read_dir(www.join("games"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(games.len(), 1, "{games:?}");
    games[0].clone()
}

#[test]
fn the_site_has_every_page_no_address_and_a_board_for_every_move() {
    let dir = tempfile::tempdir().unwrap();
    let config = played(dir.path());
    let www = dir.path().join("www");
    let said = site(&config, &www, &[]);
    assert!(said.contains("1 games (1 pages remade)"), "{said}");
    for page in [
        "index.html",
        "by-game/guerrilla-checkers.html",
        "rules/guerrilla-checkers.html",
        "rules/mad-bishops.html",
        "ratings/guerrilla-checkers.html",
    ] {
        assert!(www.join(page).is_file(), "{page}");
    }
    let page = std::fs::read_to_string(game_page(&www)).unwrap();
    let moves = page.matches("<li><a href=\"#p").count();
    assert!(moves > 10, "the demo game's moves: {moves}");
    // A board for the start and after every move.
    assert_eq!(page.matches("class=\"ply\"").count(), moves + 1);
    assert!(page.contains("Alice</a> (guerrilla) vs"), "{page}");
    // No address anywhere, and no key: the players are their names, and
    // the key of their pages' names is in the data folder.
    let key = std::fs::read_to_string(dir.path().join("demo/data/secrets/site-key")).unwrap();
    assert_eq!(key.trim().len(), 12, "{key}");
    for f in common::files(&www) {
        let text = std::fs::read_to_string(&f).unwrap();
        assert!(!text.contains(key.trim()), "{}: the key", f.display());
        assert!(
            !text.contains("@example.org"),
            "{}: an address",
            f.display()
        );
        assert!(!text.contains("+gc-"), "{}: a reply address", f.display());
    }
    // Unless the admin allows them.
    let open = dir.path().join("open");
    site(&config, &open, &["--addresses"]);
    let page = std::fs::read_to_string(game_page(&open)).unwrap();
    assert!(page.contains("alice@example.org"), "{page}");
}

#[test]
fn a_second_run_rewrites_only_what_changed() {
    let dir = tempfile::tempdir().unwrap();
    let config = played(dir.path());
    let www = dir.path().join("www");
    site(&config, &www, &[]);
    let again = site(&config, &www, &[]);
    assert!(
        again.contains("(0 pages remade), 0 pages written"),
        "{again}"
    );
    // A new game: its page and the lists it is on, nothing else.
    ok(&pbem(&[
        "new",
        "embed",
        "--player",
        "black=carol@example.org",
        "--player",
        "red=dan@example.org",
        "--first",
        "black",
        "--config",
        config.to_str().unwrap(),
    ]));
    let after = site(&config, &www, &[]);
    assert!(after.contains("2 games (1 pages remade)"), "{after}");
    // The game page, the index, its game's list, two new players' pages.
    assert!(after.contains(", 5 pages written"), "{after}");
}

/// Headless Chromium on `url` with the window the page is drawn in;
/// Chromium is required (`scripts/test` installs it).
fn browse(url: &str, extra: &[&str]) -> Vec<u8> {
    let chromium = browser::chromium();
    let mut args = vec!["--window-size=1000,900", "--virtual-time-budget=2000"];
    args.extend(extra);
    browser::run(chromium, url, &args)
}

#[test]
#[ignore = "needs headless chromium"]
fn in_a_browser_the_moves_step_through_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let config = played(dir.path());
    let www = dir.path().join("www");
    site(&config, &www, &[]);
    let url = format!("file://{}", game_page(&www).display());
    // The script ran: the slider is shown, set to the move in the
    // address, and that move is marked in the list.
    let dom = String::from_utf8(browse(&format!("{url}#p5"), &["--dump-dom"])).unwrap();
    assert!(dom.contains("<svg"), "{dom}");
    let slider = dom
        .split("id=\"slider\"")
        .nth(1)
        .and_then(|s| s.split('>').next())
        .unwrap_or_default()
        .to_string();
    assert!(!slider.contains("hidden"), "the slider is shown: {slider}");
    assert!(
        dom.contains("<a href=\"#p5\" id=\"m5\" data-ply=\"5\" class=\"now\">"),
        "move 5 is marked"
    );
    // Two moves, two different boards; the same move twice, the same.
    let shot = |ply: usize, name: &str| {
        let png = dir.path().join(name);
        browse(
            &format!("{url}#p{ply}"),
            &[&format!("--screenshot={}", png.display())],
        );
        let bytes = std::fs::read(&png).unwrap();
        assert!(bytes.starts_with(b"\x89PNG"), "{name} is a PNG");
        assert!(bytes.len() > 10_000, "{name} shows something");
        bytes
    };
    let (three, four, four_again) = (shot(3, "3.png"), shot(4, "4.png"), shot(4, "4b.png"));
    assert_ne!(three, four, "moves 3 and 4 show different boards");
    assert_eq!(four, four_again, "the same move shows the same board");
}

#[test]
fn a_finished_games_page_shows_the_bots_analysis_only_when_it_has_one() {
    let dir = tempfile::tempdir().unwrap();
    let config = played(dir.path());
    let data = dir.path().join("demo/data");
    // The demo's polls analysed the game it finished.
    let analyses = common::files(&data.join("analysis"));
    assert_eq!(analyses.len(), 1, "{analyses:?}");
    let text = std::fs::read_to_string(&analyses[0]).unwrap();
    let a = pbem::store::analysis::StoredAnalysis::parse(&text).unwrap();
    assert!(a.complete());
    let www = dir.path().join("www");
    site(&config, &www, &[]);
    let page = std::fs::read_to_string(game_page(&www)).unwrap();
    assert!(page.contains("<figure class=\"graph\">"), "{page}");
    assert_eq!(page.matches("<polyline").count(), 1);
    // Each marked move marked in the list, and no other.
    let marked = a.plies.iter().filter(|p| p.mark.is_some()).count();
    assert_eq!(page.matches("<abbr class=\"mark\"").count(), marked);
    for p in a.plies.iter().filter(|p| p.mark.is_some()) {
        let symbol = p.mark.unwrap().symbol();
        assert!(
            page.contains(&format!(
                "id=\"m{}\" data-ply=\"{}\">{} {}</a> <abbr class=\"mark\" title=\"{}\">{symbol}</abbr>",
                p.ply,
                p.ply,
                p.side,
                p.played,
                p.mark.unwrap().name()
            )),
            "move {}: {page}",
            p.ply
        );
    }
    // A damaged analysis: the page without it, the site made all the
    // same; gone, the same.
    std::fs::write(&analyses[0], "pbem-analysis 1\ngame x\n").unwrap();
    let said = site(&config, &www, &[]);
    assert!(said.contains("(1 pages remade)"), "{said}");
    let page = std::fs::read_to_string(game_page(&www)).unwrap();
    assert!(!page.contains("class=\"graph\""));
    assert!(!page.contains("class=\"mark\""));
    std::fs::remove_file(&analyses[0]).unwrap();
    site(&config, &www, &[]);
    assert!(
        !std::fs::read_to_string(game_page(&www))
            .unwrap()
            .contains("class=\"graph\"")
    );
    // Back: the page remade with it.
    std::fs::write(&analyses[0], &text).unwrap();
    site(&config, &www, &[]);
    assert!(
        std::fs::read_to_string(game_page(&www))
            .unwrap()
            .contains("class=\"graph\"")
    );
}
