//! The web archive's game page as headless Chromium draws it (issue 17):
//! a script added to a copy of the page measures, after the page's own
//! script ran, where each piece of the position on show stands (its
//! bounding box, turned into a square of the board) and what it is (its
//! tooltip); the pieces must stand where the record puts them, at the end
//! of the game and after the move the address names (`#p5`): stepping
//! through the moves changes the board the browser shows.

use crate::common::{self, browser};
use pbem_engine::board::Board;
use pbem_engine::game::Game;
use pbem_engine::games::mad::Mad;
use pbem_engine::record::{self, Record};
use std::collections::BTreeMap;
use std::path::Path;

/// The square's side and the frame around the board in the SVG's units
/// (engine/src/board/svg.rs).
const SQUARE: f64 = 48.0;
const FRAME: f64 = 6.0;

/// What the added script reports: for the position on show, each piece's
/// square (number) and tooltip.
const MEASURE: &str = r#"<script>
window.addEventListener('load', function () {
  setTimeout(function () {
    var out = [];
    document.querySelectorAll('g.ply').forEach(function (g) {
      if (getComputedStyle(g).display === 'none') return;
      var svg = g.ownerSVGElement, box = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal;
      g.querySelectorAll('use').forEach(function (u) {
        var r = u.getBoundingClientRect();
        var look = document.querySelector(u.getAttribute('href'));
        var title = look && look.querySelector('title') ? look.querySelector('title').textContent : '';
        out.push({ply: g.id, title: title,
          x: (r.x + r.width / 2 - box.x) * vb.width / box.width,
          y: (r.y + r.height / 2 - box.y) * vb.height / box.height});
      });
    });
    var pre = document.createElement('pre');
    pre.id = 'measured';
    pre.textContent = JSON.stringify(out);
    document.body.appendChild(pre);
  }, 50);
});
</script>
</body>"#;

/// The pieces Chromium shows on `page` at `hash`: (ply group, square
/// number from 1, tooltip).
fn shown(page: &Path, hash: &str) -> Vec<(String, usize, String)> {
    let chromium = browser::chromium().expect("the browser tests need Chromium");
    let args = [
        "--window-size=1000,900",
        "--virtual-time-budget=3000",
        "--dump-dom",
    ];
    let out = browser::run(chromium, &browser::file_url(page, hash), &args);
    let dom = String::from_utf8_lossy(&out);
    let json = dom
        .split("<pre id=\"measured\">")
        .nth(1)
        .and_then(|s| s.split("</pre>").next())
        .unwrap_or_else(|| panic!("the measuring script did not report: {dom}"));
    let json = json.replace("&quot;", "\"").replace("&amp;", "&");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let (x, y) = (p["x"].as_f64().unwrap(), p["y"].as_f64().unwrap());
            let col = ((x - FRAME) / SQUARE).floor() as usize;
            let row = ((y - FRAME) / SQUARE).floor() as usize;
            let square = row * 8 + col + 1;
            (
                p["ply"].as_str().unwrap().to_string(),
                square,
                p["title"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The pieces of `board` by square number: their tooltips.
fn pieces(board: &Board) -> BTreeMap<usize, String> {
    board
        .squares
        .iter()
        .enumerate()
        .filter_map(|(i, s)| Some((i + 1, s.piece.as_ref()?.name.clone())))
        .collect()
}

#[test]
fn the_browser_shows_the_pieces_where_the_record_puts_them() {
    let dir = tempfile::tempdir().unwrap();
    let setup = dir.path().join("demo");
    common::pbem_ok(&["demo", "--dir", setup.to_str().unwrap(), "--game", "mad"]);
    let config = setup.join("pbem.toml");
    let www = dir.path().join("www");
    common::pbem_ok(&[
        "site",
        www.to_str().unwrap(),
        "--config",
        config.to_str().unwrap(),
    ]);
    let page = std::fs::read_dir(www.join("games"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let id = page.file_stem().unwrap().to_string_lossy().into_owned();
    let measured = dir.path().join("measured.html");
    let html = std::fs::read_to_string(&page).unwrap();
    std::fs::write(&measured, html.replacen("</body>", MEASURE, 1)).unwrap();
    let text =
        std::fs::read_to_string(setup.join("data/games").join(format!("{id}.toml"))).unwrap();
    let rec = Record::parse(&id, &text).unwrap();
    let r = record::replay::<Mad>(&rec).unwrap();
    let board_after = |ply: usize| r.positions[ply].board(&r.view(ply, None));
    let last = r.moves.len();
    for (hash, ply) in [("", last), ("#p5", 5), ("#p0", 0)] {
        let seen = shown(&measured, hash);
        assert!(
            seen.iter().all(|(g, _, _)| *g == format!("p{ply}")),
            "{hash}: only position {ply} is on show: {seen:?}"
        );
        let seen: BTreeMap<usize, String> = seen.into_iter().map(|(_, s, t)| (s, t)).collect();
        assert_eq!(
            seen,
            pieces(&board_after(ply)),
            "{hash}: the pieces after {ply} moves"
        );
    }
    assert_ne!(
        pieces(&board_after(5)),
        pieces(&board_after(last)),
        "the moves change the board"
    );
}
