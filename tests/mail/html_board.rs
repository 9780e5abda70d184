//! The board in the HTML part of pbem's mails: every kind of
//! mail that shows a board, for all eight games, composed by the real
//! templates and built by the real MIME builder, is checked
//!
//! - against what the big webmail clients accept (size under Gmail's
//!   clipping, one `<style>` block in the head and short inline `style=`
//!   from a list of CSS properties every client keeps, no `<svg>`,
//!   `<img>`, external URL or positioning, balanced tags), and
//! - in a real browser engine: headless Chromium renders the HTML parts
//!   (and the boards as SVG), and the rendered DOM must show every
//!   square's number, each piece where the position has it, the last
//!   move's squares highlighted, the board turned for side A's seat; the
//!   screenshots must be real PNGs of the window's size.
//!
//! Chromium: Debian's `chromium` (scripts/test installs it). The browser
//! tests are ignored by a plain `cargo test`; run with
//! `--include-ignored`, they fail without it. PBEM_BOARD_SHOTS=DIR keeps
//! the pages and screenshots in DIR to look at.
//!
//! ```text
//! cargo test --test mail html_board::
//! ```

use crate::common::{browser, lock};
use minijinja::{Value, context};
use pbem::game::{Game, Side, View};
use pbem::mail::templates::Templates;
use pbem::reply::{Identity, Kind, Reply};
use pbem::rules::Rules;
use pbem_engine::board::Board;
use std::path::Path;

/// The templates that show a board.
const WITH_BOARD: &[&str] = &[
    "board",
    "challenge",
    "draw",
    "moved",
    "over",
    "rejected",
    "reminder",
    "started",
    "takeback",
];

/// Gmail clips a message over 102 KB; pbem's keep far under (the phone
/// test holds them to 10 KB and 16 KB).
const MAX_HTML: usize = 10 * 1024;
const MAX_MAIL: usize = 16 * 1024;

/// CSS properties that Gmail, Outlook.com and Yahoo keep in `style=`.
const CSS: &[&str] = &[
    "background-color",
    "border",
    "border-collapse",
    "border-radius",
    "color",
    "font",
    "font-family",
    "font-size",
    "line-height",
    "margin",
    "min-width",
    "padding",
    "text-align",
    "vertical-align",
    "width",
    "height",
    "white-space",
    "word-wrap",
];

/// A game in play: `plies` seeded random moves, seen from side A's seat
/// (turned in the games with a home edge), the last move marked.
pub struct Sample {
    pub rules: Rules,
    pub first: Side,
    /// The moves, in the game's notation.
    pub moves: Vec<String>,
    pub text: String,
    pub board: Board,
    pub value: Value,
}

pub fn sample(rules: Rules, plies: usize) -> Sample {
    pbem::with_game!(rules, G => sample_of::<G>(plies))
}

fn sample_of<G: Game>(plies: usize) -> Sample {
    let first = pbem::game::first_sides::<G>()[0];
    let (_, moves) = pbem::game::random_game::<G>(first, 17, plies);
    let mut pos = G::start(first);
    let mut last = None;
    let mut written = Vec::new();
    for mv in &moves {
        let n = pos.notation(*mv);
        written.push(n.canonical(pbem::game::geometry::<G>()));
        last = Some(n);
        pos.play_unchecked(*mv);
    }
    let view = View {
        last,
        seat: Some(Side::A),
        ply: moves.len(),
        ended: None,
    };
    Sample {
        rules: G::RULES,
        first,
        moves: written,
        text: pos.diagram(&view),
        board: pos.board(&view),
        value: pbem::mail::board::board(&pos, &view),
    }
}

/// The raw mail of template `name` showing `s`'s board.
fn mail(s: &Sample, name: &str) -> Vec<u8> {
    let ctx = context! {
        id => "g-1", game => s.rules.name(), board => s.value.clone(), mover => "black",
        move => "22-15", ply => 3, next => 4, your_turn => true, turn => "red",
        example => "22-15", result => "black wins", reason => "no move", what => "a draw",
        command => "1-2", legal => vec!["22-15"], text => "offered a draw",
        your_side => "black", players => "Alice and Bob", deadline => "soon",
    };
    let rendered = lenient(None).render(name, ctx).unwrap();
    assert!(rendered.html.is_some(), "{name}: no board table");
    let reply = Reply {
        kind: Kind::News,
        to: "Bob <bob@example.org>".into(),
        rendered,
        game: Some("g-1".into()),
        reply_to: None,
        head: None,
    };
    let identity = Identity::at("pbem@example.net");
    let now = chrono::DateTime::parse_from_rfc3339("2026-11-20T10:00:00Z")
        .unwrap()
        .to_utc();
    pbem::mail::outbound::build(&identity, &reply, "<g-1.1@example.net>", None, &[], now)
        .unwrap()
        .raw
}

fn html_part(raw: &[u8]) -> String {
    let msg = mail_parser::MessageParser::default().parse(raw).unwrap();
    msg.body_html(0).unwrap().replace("\r\n", "\n")
}

#[test]
fn every_mail_with_a_board_keeps_to_webmail_limits() {
    let _g = lock::shared();
    let (mut biggest_html, mut biggest_mail) = (0, 0);
    for rules in Rules::ALL {
        let s = sample(rules, 12);
        for name in WITH_BOARD {
            let raw = mail(&s, name);
            let html = html_part(&raw);
            let what = format!("{} {name}", rules.slug());
            biggest_html = biggest_html.max(html.len());
            biggest_mail = biggest_mail.max(raw.len());
            assert!(html.len() < MAX_HTML, "{what}: {} bytes", html.len());
            assert!(raw.len() < MAX_MAIL, "{what}: {} bytes", raw.len());
            assert!(html.contains("<table"), "{what}");
            let lower = html.to_lowercase();
            let (head, body) = html.split_once("<body>").unwrap();
            let body = body.split("</body>").next().unwrap();
            assert_eq!(head.matches("<style>").count(), 1, "{what}");
            assert!(
                !body.contains("<style"),
                "{what}: a style block in the body"
            );
            for banned in [
                "<svg",
                "<img",
                "<link",
                "<script",
                "http:",
                "https:",
                "url(",
                "position",
                "!important",
                "@import",
            ] {
                assert!(!lower.contains(banned), "{what}: {banned}");
            }
            for decl in styles(body) {
                let prop = decl.split(':').next().unwrap_or("").trim();
                assert!(CSS.contains(&prop), "{what}: CSS {decl:?}");
            }
            balanced(body).unwrap_or_else(|e| panic!("{what}: {e}"));
            // The text part keeps the ASCII board.
            let msg = mail_parser::MessageParser::default().parse(&raw).unwrap();
            let plain = msg.body_text(0).unwrap().replace("\r\n", "\n");
            let grid = pbem::diagram::ascii(&s.board);
            assert!(plain.contains(grid.trim_end()), "{what}: {plain}");
            assert!(
                !html.contains("+----"),
                "{what}: an ASCII board in the HTML"
            );
        }
    }
    eprintln!(
        "html_board: the biggest HTML part is {biggest_html} bytes, the biggest mail {biggest_mail} bytes"
    );
}

/// Every `style="..."` declaration.
fn styles(html: &str) -> Vec<String> {
    html.split("style=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .flat_map(|s| s.split(';').map(str::to_string).collect::<Vec<_>>())
        .filter(|d| !d.trim().is_empty())
        .collect()
}

/// Start and end tags match (void elements aside).
fn balanced(html: &str) -> Result<(), String> {
    let mut open: Vec<String> = Vec::new();
    for piece in html.split('<').skip(1) {
        let tag = piece.split('>').next().unwrap_or("");
        if tag.starts_with('!') {
            continue;
        }
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if ["meta", "br", "hr", "wbr"].contains(&name.as_str()) {
            continue;
        }
        if tag.starts_with('/') {
            match open.pop() {
                Some(o) if o == name => {}
                o => return Err(format!("</{name}> closes {o:?}")),
            }
        } else {
            open.push(name);
        }
    }
    match open.is_empty() {
        true => Ok(()),
        false => Err(format!("unclosed {open:?}")),
    }
}

/// A screenshot of `page`: a PNG of the window's size, with something
/// in it.
fn screenshot(browser: &str, page: &Path, shot: &Path, (w, h): (u32, u32)) {
    let size = format!("--window-size={w},{h}");
    let arg = format!("--screenshot={}", shot.display());
    browser::run(browser, &browser::file_url(page, ""), &[&arg, &size]);
    let png = std::fs::read(shot).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{}", shot.display());
    assert_eq!(&png[12..16], b"IHDR");
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    assert_eq!((be(&png[16..20]), be(&png[20..24])), (w, h));
    assert!(
        png.len() > 20_000,
        "{}: only {} bytes",
        shot.display(),
        png.len()
    );
}

/// Where the pages and screenshots go: PBEM_BOARD_SHOTS or a temporary
/// folder.
fn shots() -> (Option<tempfile::TempDir>, std::path::PathBuf) {
    match std::env::var_os("PBEM_BOARD_SHOTS") {
        Some(d) => {
            std::fs::create_dir_all(&d).unwrap();
            (None, std::fs::canonicalize(d).unwrap())
        }
        None => {
            let t = tempfile::tempdir().unwrap();
            let p = t.path().to_path_buf();
            (Some(t), p)
        }
    }
}

/// Measures every titled table cell of every framed mail after layout: its
/// game, title, size, background, and its disc (size, corner radius,
/// label).
const MEASURE: &str = r#"<pre id="measured"></pre><script>
window.addEventListener('load', () => {
const out = [];
for (const f of document.querySelectorAll('iframe'))
for (const td of f.contentDocument.querySelectorAll('table.b td')) {
  const first = td.firstChild && td.firstChild.nodeType === 3 ? td.firstChild.textContent.trim() : '';
  if (!td.title && !/^[0-9]+$/.test(first)) continue;
  const r = td.getBoundingClientRect();
  const disc = td.querySelector('font');
  const d = disc ? disc.getBoundingClientRect() : null;
  out.push({game: f.id, title: td.title,
    w: Math.round(r.width), h: Math.round(r.height), x: Math.round(r.x), y: Math.round(r.y),
    bg: getComputedStyle(td).backgroundColor,
    number: first,
    disc: d ? {w: Math.round(d.width), h: Math.round(d.height),
      radius: getComputedStyle(disc).borderTopLeftRadius, label: disc.textContent} : null});
}
document.getElementById('measured').textContent = JSON.stringify(out);
});
</script>"#;

#[test]
#[ignore = "needs headless chromium"]
fn the_html_boards_render_in_chromium() {
    let _g = lock::shared();
    let browser = browser::chromium();
    let (_keep, dir) = shots();
    let samples: Vec<Sample> = Rules::ALL.iter().map(|r| sample(*r, 11)).collect();
    // One page of the eight mails' HTML parts, each in a frame of its
    // own (each has its own style block), then the measuring script.
    let mut page =
        String::from("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head><body>\n");
    for s in &samples {
        let html = html_part(&mail(s, "moved"));
        std::fs::write(dir.join(format!("{}.html", s.rules.slug())), &html).unwrap();
        let framed = html.replace('&', "&amp;").replace('"', "&quot;");
        page.push_str(&format!(
            "<iframe id=\"{}\" width=\"600\" height=\"1400\" srcdoc=\"{framed}\"></iframe>\n",
            s.rules.slug()
        ));
    }
    page.push_str(MEASURE);
    page.push_str("</body></html>\n");
    let file = dir.join("all-games.html");
    std::fs::write(&file, &page).unwrap();
    let dom = String::from_utf8(browser::run(
        browser,
        &browser::file_url(&file, ""),
        &["--virtual-time-budget=5000", "--dump-dom"],
    ))
    .unwrap();
    let json = dom
        .split("<pre id=\"measured\">")
        .nth(1)
        .and_then(|s| s.split("</pre>").next())
        .expect("the measuring script ran");
    let json = json.replace("&quot;", "\"").replace("&amp;", "&");
    let cells: Vec<serde_json::Value> = serde_json::from_str(&json).unwrap();
    for s in &samples {
        check_rendered(s, &cells);
    }
    screenshot(browser, &file, &dir.join("all-games.png"), (640, 6000));
    // One mail's HTML part as it is, alone.
    let one = dir.join("toroidal-checkers.html");
    let dom = String::from_utf8(browser::run(
        browser,
        &browser::file_url(&one, ""),
        &["--dump-dom"],
    ))
    .unwrap();
    assert!(
        dom.contains("<table class=\"b\"") && dom.contains(">64"),
        "{dom}"
    );
    screenshot(
        browser,
        &one,
        &dir.join("toroidal-checkers.png"),
        (520, 900),
    );
}

/// The rendered cells of `s`'s game show its board: every square once,
/// with its number; the pieces and the last move where the position has
/// them; the first square shown where the seat puts it; square cells of
/// one size; discs round, with their labels.
fn check_rendered(s: &Sample, cells: &[serde_json::Value]) {
    let slug = s.rules.slug();
    let mine: Vec<&serde_json::Value> = cells.iter().filter(|c| c["game"] == slug).collect();
    let squares: Vec<&&serde_json::Value> = mine
        .iter()
        .filter(|c| !c["title"].as_str().unwrap().contains('/'))
        .collect();
    let g = s.board.geometry;
    assert_eq!(squares.len(), g.squares() as usize, "{slug}");
    let first = s.board.shown_at(0, 0).number().to_string();
    assert_eq!(squares[0]["number"], first.as_str(), "{slug}: turned?");
    // The last move's squares stand out: no other square has their colour.
    let unmarked_bgs: Vec<&serde_json::Value> = squares
        .iter()
        .filter(|c| !c["title"].as_str().unwrap().ends_with("last move"))
        .map(|c| &c["bg"])
        .collect();
    for (i, sq) in s.board.squares.iter().enumerate() {
        let n = (i + 1).to_string();
        let cell = squares
            .iter()
            .find(|c| c["number"] == n.as_str())
            .unwrap_or_else(|| panic!("{slug}: no square {n}"));
        // Titled where the square holds or marks something.
        let title = match sq.piece.is_some() || sq.marked {
            true => pbem_engine::board::square_title(&s.board, pbem::geom::Sq(i as u8)),
            false => String::new(),
        };
        assert_eq!(cell["title"], title.as_str(), "{slug}");
        // Square cells, all of one size.
        assert_eq!(cell["w"], cell["h"], "{slug}: {cell}");
        assert_eq!(cell["w"], squares[0]["w"], "{slug}: {cell}");
        assert!(
            (28..=44).contains(&cell["w"].as_i64().unwrap()),
            "{slug}: {cell}"
        );
        if sq.marked {
            assert!(!unmarked_bgs.contains(&&cell["bg"]), "{slug}: {cell}");
        }
        match &sq.piece {
            Some(p) => {
                let d = &cell["disc"];
                assert_eq!(d["w"], d["h"], "{slug}: {cell}");
                assert!(d["w"].as_i64().unwrap() >= 17, "{slug}: {cell}");
                assert_ne!(d["radius"], "0px", "{slug}: {cell}");
                let label = d["label"].as_str().unwrap();
                let want = if p.label.is_empty() {
                    "\u{25cf}"
                } else {
                    p.label.as_ref()
                };
                assert_eq!(label, want, "{slug}: {cell}");
            }
            None => assert!(cell["disc"].is_null(), "{slug}: {cell}"),
        }
    }
    assert!(
        s.board.squares.iter().any(|q| q.marked)
            || s.board.points.iter().flatten().next().is_some(),
        "{slug}: the sample has no last move"
    );
    // Stones on crossings: one titled cell each, between the squares.
    for p in s.board.points.iter().flatten() {
        assert!(
            mine.iter().any(|c| c["title"]
                .as_str()
                .unwrap()
                .starts_with(&format!("{}:", p.name))),
            "{slug}: no crossing {}",
            p.name
        );
    }
    assert!(s.text.contains(&pbem::diagram::ascii(&s.board)));
}

#[test]
#[ignore = "needs headless chromium"]
fn the_svg_boards_load_in_chromium() {
    let _g = lock::shared();
    let browser = browser::chromium();
    let (_keep, dir) = shots();
    let mut page = String::from("<!DOCTYPE html>\n<html><body>\n");
    let mut sizes = Vec::new();
    for rules in Rules::ALL {
        let s = sample(rules, 11);
        let svg = pbem_engine::board::svg(&s.board);
        let name = format!("{}.svg", rules.slug());
        std::fs::write(dir.join(&name), &svg).unwrap();
        page.push_str(&format!("<img id=\"{}\" src=\"{name}\">\n", rules.slug()));
        let side = u32::from(s.board.geometry.width) * 48 + 12;
        sizes.push(format!("{}:{side}x{side}", rules.slug()));
    }
    page.push_str(
        "<pre id=\"loaded\"></pre><script>window.addEventListener('load', () => {\
         document.getElementById('loaded').textContent = [...document.images]\
         .map(i => i.id + ':' + i.naturalWidth + 'x' + i.naturalHeight).join(' ');});</script>\
         </body></html>\n",
    );
    let file = dir.join("all-svg.html");
    std::fs::write(&file, &page).unwrap();
    let dom = String::from_utf8(browser::run(
        browser,
        &browser::file_url(&file, ""),
        &["--virtual-time-budget=3000", "--dump-dom"],
    ))
    .unwrap();
    // A broken SVG loads as an image of no size.
    assert!(dom.contains(&sizes.join(" ")), "{dom}");
    screenshot(browser, &file, &dir.join("all-svg.png"), (1100, 1800));
    // Alone, an SVG is read by the browser's XML parser: well-formed.
    let guerrilla = dir.join("guerrilla-checkers.svg");
    let dom = String::from_utf8(browser::run(
        browser,
        &browser::file_url(&guerrilla, ""),
        &["--dump-dom"],
    ))
    .unwrap();
    assert!(dom.contains("<title>64</title>"), "{dom}");
    assert!(!dom.contains("parsererror"), "{dom}");
}

/// The templates, rendered with this file's hand-made contexts of a few
/// values each: a value they leave out renders as nothing. The contexts
/// pbem builds itself render strictly (the golden mails, the server tests).
fn lenient(dir: Option<std::path::PathBuf>) -> Templates {
    Templates::with_strictness(dir, false)
}
