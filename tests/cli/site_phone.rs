//! The web archive as a phone, a tablet and a desktop show it, without
//! JavaScript: every kind of page (the index and its further pages, the
//! lists by game and by player and their further pages, a tournament,
//! ratings, the rules of all eight games, the pages of a game of each
//! game, a long game's second page) loaded in headless Chromium in frames
//! 360, 768 and 1280 px wide whose sandbox runs no script, and measured:
//!
//! - nothing wider than the frame (no sideways scrolling);
//! - no two moves of a game's list with words over each other;
//! - the position named in the address on show, with its caption, and
//!   that move (and no other) marked in the list; without a position
//!   named, the page's last;
//! - the pages of finished games with the bot's analysis (its graph, the
//!   marks in the list) among them.
//!
//! Screenshots of each kind of page at 360 and 1280 px (with scripts) go
//! to `target/site-shots/`.
//!
//! ```text
//! cargo test --test cli site_phone:: -- --include-ignored
//! ```

use crate::common::{self, browser};
use serde_json::Value;
use std::path::{Path, PathBuf};

const WIDTHS: [u32; 3] = [360, 768, 1280];

/// The measuring page: its lists of pages and widths filled in.
const MEASURE: &str = include_str!("site_phone/measure.html");

/// Copies of the demo's game of M.A.D. under other ids, so that its
/// lists run to more than one page of 200 rows.
const COPIES: usize = 210;

/// A player's name longer than a phone is wide, with nowhere to break it.
const LONG_NAME: &str = "MaximilianusBartholomaeusFeatherstonehaughCholmondeley";

/// A data folder with a long game of M.A.D. (two pages), a game of each
/// other game, the copies, a tournament and ratings; its site in `www`.
fn archive(dir: &Path) -> PathBuf {
    let setup = dir.join("demo");
    common::pbem_ok(&["demo", "--dir", setup.to_str().unwrap(), "--game", "mad"]);
    let games = setup.join("data/games");
    for game in [
        "boom-and-zoom",
        "dragons-teeth",
        "embed",
        "mad-rooks",
        "mad-bishops",
        "guerrilla-checkers",
        "toroidal-checkers",
    ] {
        let other = dir.join(game);
        common::pbem_ok(&["demo", "--dir", other.to_str().unwrap(), "--game", game]);
        for record in common::files(&other.join("data/games")) {
            std::fs::copy(&record, games.join(record.file_name().unwrap())).unwrap();
        }
        // The bot's analysis of each finished game, which the demo's
        // polls made: its graph and marks on the game's pages.
        for analysis in common::files(&other.join("data/analysis")) {
            let to = setup
                .join("data/analysis")
                .join(analysis.file_name().unwrap());
            std::fs::copy(&analysis, to).unwrap();
        }
    }
    let mad = common::files(&games)
        .into_iter()
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with("mad-"))
        .unwrap();
    let text = std::fs::read_to_string(&mad).unwrap();
    let id = mad.file_stem().unwrap().to_string_lossy().into_owned();
    for i in 0..COPIES {
        let copy = format!("mad-{i:012}");
        let mut text = text.replace(&id, &copy);
        if i % 2 == 0 {
            // A name without a space to break it at, in the newest.
            text = text.replace("\"Bob <", &format!("\"{LONG_NAME} <"));
        }
        std::fs::write(games.join(format!("{copy}.toml")), text).unwrap();
    }
    let config = setup.join("pbem.toml");
    let config = config.to_str().unwrap();
    common::new_cup(config);
    let www = dir.join("www");
    common::pbem_ok(&["site", www.to_str().unwrap(), "--config", config]);
    www
}

/// What Chromium measured of `pages` (relative to `www`, with a position
/// in the address or not) at each width.
fn measure(www: &Path, pages: &[String]) -> Vec<Value> {
    let list = serde_json::to_string(pages).unwrap();
    let widths = serde_json::to_string(&WIDTHS).unwrap();
    let html = MEASURE
        .replace("/*PAGES*/[]", &list)
        .replace("/*WIDTHS*/[]", &widths);
    let page = www.join("measure.html");
    std::fs::write(&page, html).unwrap();
    let chromium = browser::chromium();
    let args = [
        "--allow-file-access-from-files",
        "--virtual-time-budget=120000",
        "--dump-dom",
    ];
    let dom = browser::run(chromium, &browser::file_url(&page, ""), &args);
    let dom = String::from_utf8_lossy(&dom);
    let json = dom
        .split("<pre id=\"measured\">")
        .nth(1)
        .and_then(|s| s.split("</pre>").next())
        .unwrap_or_else(|| panic!("the measuring page did not report: {dom}"))
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let v: Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
    let all = v.as_array().unwrap().clone();
    assert_eq!(all.len(), pages.len() * WIDTHS.len(), "{all:?}");
    all
}

/// The pages of `www` to look at: one or two of each kind.
fn pages(www: &Path) -> Vec<String> {
    let all: Vec<String> = common::files(www)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .map(|p| p.strip_prefix(www).unwrap().to_string_lossy().into_owned())
        .collect();
    let mut out = vec!["index.html".to_string()];
    for kind in [
        "in-play_2",
        "finished_2",
        "by-game/mad.html",
        "by-game/mad_2",
        "tournaments/",
        "ratings/",
    ] {
        out.extend(all.iter().find(|p| p.contains(kind)).cloned());
    }
    // A player's pages: the one with the most.
    let mut players: Vec<&String> = all.iter().filter(|p| p.starts_with("players/")).collect();
    players.sort();
    out.extend(
        players
            .iter()
            .find(|p| p.ends_with("_2.html"))
            .map(|p| p.to_string()),
    );
    out.extend(players.first().map(|p| p.to_string()));
    out.extend(all.iter().filter(|p| p.starts_with("rules/")).cloned());
    // A game of each game (not the copies), its first and second pages.
    out.extend(
        all.iter()
            .filter(|p| p.starts_with("games/") && !p.contains("-000"))
            .cloned(),
    );
    out.sort();
    out.dedup();
    out
}

#[test]
#[ignore = "needs headless chromium"]
fn every_kind_of_page_reads_on_a_phone_without_a_script() {
    let dir = tempfile::tempdir().unwrap();
    let www = archive(dir.path());
    let index = std::fs::read_to_string(www.join("index.html")).unwrap();
    assert!(index.contains(LONG_NAME), "the long name is on show");
    let mut pages = pages(&www);
    let analysed = pages
        .iter()
        .filter(|p| p.starts_with("games/"))
        .filter(|p| {
            let text = std::fs::read_to_string(www.join(p)).unwrap();
            text.contains("<figure class=\"graph\">") && text.contains("<abbr class=\"mark\"")
        })
        .count();
    assert!(analysed >= 3, "pages with the bot's analysis: {analysed}");
    for kind in [
        "finished_2",
        "by-game/mad_2",
        "players/",
        "tournaments/",
        "ratings/",
        "rules/mad-bishops",
        "games/gc-",
        "_2.html",
    ] {
        assert!(
            pages.iter().any(|p| p.contains(kind)),
            "a page of {kind}: {pages:?}"
        );
    }
    // Positions named in the address: an early one, the start, and one
    // of a long game's second page.
    let long = pages
        .iter()
        .find(|p| p.starts_with("games/mad-") && p.ends_with("_2.html"))
        .unwrap()
        .clone();
    let first = long.replace("_2.html", ".html");
    let named = [(first.clone(), 5), (first.clone(), 0), (long.clone(), 203)];
    pages.extend(named.iter().map(|(p, n)| format!("{p}#p{n}")));
    let measured = measure(&www, &pages);
    let faults: Vec<String> = measured.iter().flat_map(faults_of).collect();
    assert!(
        faults.is_empty(),
        "{} faults:\n{}",
        faults.len(),
        faults.join("\n")
    );
    shots(&www, &pages);
}

/// What is wrong with one page at one width, as [`measure`] saw it.
fn faults_of(m: &Value) -> Vec<String> {
    let mut faults = Vec::new();
    let (page, width) = (m["page"].as_str().unwrap(), m["width"].as_u64().unwrap());
    let at = format!("{page} at {width} px");
    if m.get("error").is_some() {
        faults.push(format!("{at}: {}", m["error"]));
        return faults;
    }
    if m["scroll_width"].as_u64() > m["client_width"].as_u64() {
        faults.push(format!(
            "{at}: {} px wide, wider than its {} px: {}",
            m["scroll_width"], m["client_width"], m["wide"]
        ));
    }
    if !m["overlaps"].as_array().unwrap().is_empty() {
        faults.push(format!("{at}: moves over each other: {}", m["overlaps"]));
    }
    if !page.starts_with("games/") {
        return faults;
    }
    if m["scripted"].as_bool() != Some(false) {
        faults.push(format!("{at}: its script ran"));
    }
    let moves = m["moves"].as_u64().unwrap() as usize;
    let shown = m["shown"].as_array().unwrap();
    let expected = match page.split_once("#p") {
        Some((_, n)) => n.parse::<usize>().unwrap(),
        None => m["last"].as_u64().unwrap() as usize,
    };
    let [one] = shown.as_slice() else {
        faults.push(format!(
            "{at}: {} positions on show, not one: {shown:?}",
            shown.len()
        ));
        return faults;
    };
    if one["id"] != format!("p{expected}") {
        faults.push(format!(
            "{at}: position {} on show, not {expected}",
            one["id"]
        ));
    }
    let caption = one["caption"].as_str().unwrap_or_default();
    let said = if expected == 0 {
        "The start".to_string()
    } else {
        format!("After move {expected}: ")
    };
    if !caption.starts_with(&said) {
        faults.push(format!(
            "{at}: the caption {caption:?} does not name move {expected}"
        ));
    }
    let marked: Vec<&str> = m["marked"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let want: Vec<String> = if expected == 0 || moves == 0 {
        vec![]
    } else {
        vec![format!("m{expected}")]
    };
    if marked != want {
        faults.push(format!("{at}: marked in the list {marked:?}, not {want:?}"));
    }
    faults
}

/// The measure finds what it looks for: a page with a table wider than
/// a phone, a list of moves in two columns whose words run into each
/// other, and two positions on show.
#[test]
#[ignore = "needs headless chromium"]
fn the_measure_sees_overflow_overlaps_and_a_wrong_position() {
    let dir = tempfile::tempdir().unwrap();
    let www = dir.path();
    std::fs::create_dir_all(www.join("games")).unwrap();
    std::fs::write(
        www.join("games/bad.html"),
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>bad</title>\
         <style>ol { columns: 2; width: 20em; } .ply { display: inline; }</style></head><body>\
         <table><tr><td style=\"white-space: nowrap\">a row far too long for a phone to show \
         without scrolling sideways, a row far too long</td></tr></table>\
         <svg><g id=\"p1\" class=\"ply\"></g><g id=\"p2\" class=\"ply\"></g></svg>\
         <ol id=\"moves\"><li><a id=\"m1\" href=\"#p1\">coin&nbsp;18x27x20x29x36x27x18x27x20x29</a></li>\
         <li><a id=\"m2\" href=\"#p2\">coin&nbsp;18x27x20x29x36x27x18x27x20x29</a></li></ol>\
         </body></html>",
    )
    .unwrap();
    let measured = measure(www, &["games/bad.html".to_string()]);
    let phone = &measured[0];
    assert!(
        phone["scroll_width"].as_u64() > phone["client_width"].as_u64(),
        "{phone}"
    );
    assert!(!phone["overlaps"].as_array().unwrap().is_empty(), "{phone}");
    assert_eq!(phone["shown"].as_array().unwrap().len(), 2, "{phone}");
}

/// Screenshots of each kind of page at 360 and 1280 px, with scripts,
/// into `target/site-shots/`, to be looked at.
fn shots(www: &Path, pages: &[String]) {
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/site-shots");
    std::fs::create_dir_all(&out).unwrap();
    let mut taken = std::collections::BTreeSet::new();
    for page in pages.iter().filter(|p| !p.contains('#')) {
        // The kind: the folder (`games`, `games-2` for a second page),
        // or the page itself at the top (`index`, `finished_2`).
        let kind = match page.split_once('/') {
            Some((folder, _)) if page.ends_with("_2.html") => format!("{folder}-2"),
            Some((folder, _)) => folder.to_string(),
            None => page.trim_end_matches(".html").to_string(),
        };
        if !taken.insert(kind.clone()) {
            continue;
        }
        for width in [360, 1280] {
            let png = out.join(format!("{kind}-{width}.png"));
            let args = [
                format!("--window-size={width},1400"),
                format!("--screenshot={}", png.display()),
            ];
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            browser::run(
                browser::chromium(),
                &browser::file_url(&www.join(page), ""),
                &args,
            );
            assert!(
                std::fs::read(&png).unwrap().starts_with(b"\x89PNG"),
                "{}",
                png.display()
            );
        }
    }
}
