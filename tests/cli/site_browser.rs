//! The web archive's game page as headless Chromium draws it:
//! a script added to a copy of the page measures, after the page's own
//! script ran, where each piece of the position on show stands (its
//! bounding box, turned into a square of the board) and what it is (its
//! tooltip); the pieces must stand where the record puts them, at the end
//! of the game and after the move the address names (`#p5`): stepping
//! through the moves changes the board the browser shows. A game longer
//! than a page (200 moves) is stepped through across its pages with the
//! arrow keys.

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
    let chromium = browser::chromium();
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
        .filter_map(|(i, s)| Some((i + 1, s.piece.as_ref()?.name.to_string())))
        .collect()
}

#[test]
#[ignore = "needs headless chromium"]
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
    let id = std::fs::read_dir(setup.join("data/games"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path()
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let text =
        std::fs::read_to_string(setup.join("data/games").join(format!("{id}.toml"))).unwrap();
    let rec = Record::parse(&id, &text).unwrap();
    let r = record::replay::<Mad>(&rec).unwrap();
    let board_after = |ply: usize| r.positions[ply].board(&r.view(ply, None));
    let last = r.moves.len();
    // The game's pages of 200 moves: its first, and its last, which holds
    // the end of the game.
    let pages = last.div_ceil(200).max(1);
    let last_page = if pages == 1 {
        format!("{id}.html")
    } else {
        format!("{id}_{pages}.html")
    };
    let measured = |name: &str| {
        let html = std::fs::read_to_string(www.join("games").join(name)).unwrap();
        let copy = dir.path().join(format!("measured-{name}"));
        std::fs::write(&copy, html.replacen("</body>", MEASURE, 1)).unwrap();
        copy
    };
    let (first, end) = (measured(&format!("{id}.html")), measured(&last_page));
    let mut seen_at = vec![(&end, "", last), (&first, "#p5", 5), (&first, "#p0", 0)];
    if pages > 1 {
        // A page shows its own last position by default, and any of its
        // own by its name.
        seen_at.push((&first, "", 200));
        seen_at.push((&end, "#p201", 201));
    }
    for (page, hash, ply) in seen_at {
        let seen = shown(page, hash);
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

/// Presses `key` once the page has loaded and its script run.
fn pressing(key: &str) -> String {
    format!(
        "<script>window.addEventListener('load', function () {{ setTimeout(function () {{ \
         document.dispatchEvent(new KeyboardEvent('keydown', {{key: '{key}'}})); }}, 50); }});\
         </script></body>"
    )
}

#[test]
#[ignore = "needs headless chromium"]
fn in_a_browser_the_arrow_keys_step_across_the_pages_of_a_long_game() {
    let dir = tempfile::tempdir().unwrap();
    let setup = dir.path().join("demo");
    // The demo's game of M.A.D. is longer than a page (365 moves).
    common::pbem_ok(&["demo", "--dir", setup.to_str().unwrap(), "--game", "mad"]);
    let config = setup.join("pbem.toml");
    let www = dir.path().join("www");
    common::pbem_ok(&[
        "site",
        www.to_str().unwrap(),
        "--config",
        config.to_str().unwrap(),
    ]);
    let games = www.join("games");
    let second = common::files(&games)
        .into_iter()
        .find(|p| p.to_string_lossy().ends_with("_2.html"))
        .expect("a second page");
    let first = second.to_string_lossy().replace("_2.html", ".html");
    let chromium = browser::chromium();
    // A copy of a page beside it (its links work) that presses a key.
    let step = |page: &Path, key: &str, at: usize| {
        let html = std::fs::read_to_string(page).unwrap();
        let copy = games.join(format!("step-{key}.html"));
        std::fs::write(&copy, html.replacen("</body>", &pressing(key), 1)).unwrap();
        let args = [
            "--window-size=1000,900",
            "--virtual-time-budget=3000",
            "--dump-dom",
        ];
        let url = browser::file_url(&copy, &format!("#p{at}"));
        String::from_utf8_lossy(&browser::run(chromium, &url, &args)).into_owned()
    };
    // After the first page's last move, the next: on the second page.
    let dom = step(Path::new(&first), "ArrowRight", 200);
    assert!(dom.contains("moves 201–"), "the second page: {dom}");
    assert!(
        dom.contains("data-ply=\"201\" class=\"now\""),
        "move 201 marked"
    );
    // Before the second page's first move, the one before: on the first.
    let dom = step(&second, "ArrowLeft", 200);
    assert!(dom.contains("moves 1–200"), "the first page: {dom}");
    assert!(
        dom.contains("data-ply=\"199\" class=\"now\""),
        "move 199 marked"
    );
}
