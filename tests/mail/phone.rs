//! Every kind of mail pbem sends, for all eight games, as a phone shows
//! it: composed by the real templates ([`Templates::compose`]) and built
//! by the real MIME builder, each template with a context of the values
//! the adjudicator gives it (long names and addresses, a game in play with
//! its last move, a record, ratings and standings tables), and checked
//!
//! - for size: the HTML part under 10 KB, the whole mail under 16 KB;
//! - for the plain text: every line at most 72 columns, a board's rows at
//!   most 78;
//! - in headless Chromium, in a 360 px window, with the HTML part's
//!   `<style>` block and without it (as Gmail shows it to other
//!   accounts): nothing wider than the window, and every piece and stone
//!   of the position in the table cell of its square, with its name and
//!   label. Screenshots (360 px with and without style, 1280 px) of each
//!   game's move mail go to `target/phone-shots/`.
//!
//! ```text
//! cargo test --test mail phone::
//! ```

use crate::common::{browser, lock};
use crate::html_board::{Sample, sample};
use minijinja::{Value, context};
use pbem::mail::templates::{DEFAULTS, Templates};
use pbem::reply::{Identity, Kind, Letter};
use pbem::rules::Rules;
use std::collections::BTreeSet;
use std::path::PathBuf;

const MAX_HTML: usize = 10 * 1024;
const MAX_MAIL: usize = 16 * 1024;
const PHONE: u32 = 360;

/// The templates this test words, each kind of mail pbem sends.
const KINDS: &[&str] = &[
    "analysis",
    "analysis_table",
    "board",
    "challenge",
    "challenged",
    "conditions",
    "confirm",
    "damaged",
    "dead_letter",
    "declined",
    "digest",
    "draw",
    "help",
    "info",
    "key_used",
    "moved",
    "over",
    "paused",
    "rejected",
    "reminder",
    "series_over",
    "spoofed",
    "started",
    "takeback",
    "unanswered",
    "withdrawn",
];

/// One mail as sent.
pub struct Mail {
    pub slug: &'static str,
    pub template: &'static str,
    pub raw: Vec<u8>,
    pub html: String,
    pub plain: String,
}

const ALICE: &str =
    "Alexandra Zo\u{eb} Konstantinopoulou-Smythe <alexandra.konstantinopoulou@example.org>";
const BOB: &str = "Bartholomew Oyelaran-Fitzgerald <bartholomew.fitzgerald@example.com>";
const REPLY_TO: &str = "pbem+g-2026-11-20-1.k3y9f0a1b2c3d4e5@example.net";

/// The record of a game of `s`'s rules longer than most games by mail
/// run (200 moves, or to its end), as the `over` mail quotes it.
fn record(s: &Sample) -> String {
    let long = sample(s.rules, 200);
    let mut rec = pbem_engine::record::Record::from_move_list(
        "g.toml",
        s.rules,
        Some(s.first),
        &long.moves.join("\n"),
    )
    .unwrap();
    rec.id = Some("g-2026-11-20-1".into());
    rec.players = pbem_engine::side::PerSide([Some(ALICE.into()), Some(BOB.into())]);
    pbem_engine::record::write::moves_only(&rec)
}

/// The words of the tables an `info` mail carries.
fn info_text(t: &Templates) -> String {
    let rows: Vec<Value> = (1..=6)
        .map(|i| {
            context! { place => i, player => if i % 2 == 0 { ALICE } else { BOB },
            rating => 1500 + 37 * i, deviation => 61, games => i, points => "2.5",
            tie_break => "10.5", played => 3, dropped => i == 5 }
        })
        .collect();
    let games = vec![context! { game => "Boom & Zoom", rows => rows.clone(), more => 3 }];
    let ratings = t.words("ratings_table", context! { games }).unwrap();
    let standings = t
        .words(
            "standings_table",
            context! { name => "autumn-cup-2026", game => "Mad Bishops", format => "Swiss, 5 rounds",
            players => 12, round => 3, rounds => 5, rows, tie_break => "Buchholz",
            pairings => vec![context! { game => "g-2026-11-20-7", first => ALICE, second => BOB }] },
        )
        .unwrap();
    let lines = vec![
        context! { id => "g-2026-11-20-1", game => "Guerrilla Checkers", side => "COIN", outcome => "in_play",
        address => REPLY_TO, blank => "              " },
        context! { id => "g-2026-11-19-4", game => "Mad Bishops", challenge => true, to_you => true, challenger => BOB },
    ];
    let list = t.words("games_list", context! { rows => lines }).unwrap();
    format!("{ratings}\n\n{standings}\n\n{list}\n")
}

/// The context of template `name` for `s`'s game.
pub fn context_of(t: &Templates, s: &Sample, name: &str) -> Value {
    let game = s.rules.name();
    let legal = "  from 22: 22-17 22-18\n  from 23: 23-18 23-19\n  from 24: 24-19 24-20";
    let base = context! {
        id => "g-2026-11-20-1", game, slug => s.rules.slug(), board => s.value.clone(),
        mover => ALICE, opponent => BOB, challenger => ALICE, name => ALICE, who => BOB,
        move => s.moves.last().cloned().unwrap_or_default(), ply => s.moves.len(),
        next => s.moves.len() + 1, your_turn => true, turn => "red", example => "22-15",
        result => "black wins", reason => "red has no legal move left on the board",
        what => "your move", command => "22-15", legal, from => 22,
        text => "Bartholomew offers a draw.",
        your_side => "black", first => "black", players => format!("{ALICE} and {BOB}"),
        deadline => "Tue 24 Nov 2026 18:00 Europe/Amsterdam (in 3 days)", clock => "3 days per move",
        clock_words => "each move within 3 days, weekends free", byline => "(rules by Ty Bomba)",
        notation => "as two square numbers joined by a dash, like 22-15", summary => "A game of towers.",
        title => "ratings", record => record(s), section => "Zooming", rules_of => s.rules.slug(),
        address => REPLY_TO, sender => "mallory@example.net", received => "Fri 20 Nov 2026 10:00 UTC",
        subject => "Re: [pbem g-2026-11-20-1] a game", error => "no text part: the mail is HTML only",
        series => context! { length => 5, yours => 2, theirs => 1, number => 3 },
        rating => context! { before => 1500, after => 1517, change => "+17", theirs_before => 1540,
        theirs_after => 1523, theirs_change => "-17" }, count => 2, days => 14, until => "1 Dec 2026",
        games => "Boom & Zoom, Dragons Teeth, Embed, Guerrilla Checkers, M.A.D., Mad Bishops, Mad Rooks, Toroidal Checkers",
        winner => ALICE, over => false, event => "draw offered", played => "22-15",
        conditions => context! {
            replies => vec![context! { ply => 13, mover => "white", text => "27/36,28/37", answers => "22x31x40x49x58x67", yours => false }],
            set => true, refused => vec![context! { line => "if 99-98 then 15-8 if 27/36,28/37 then 22x31x40x49x58x67",
                reason => "your opponent could not play 99-98 there (99-98 is not a legal move for black: 99 holds no tower of black's)", legal }],
            standing => vec!["if 50-42 then 15-8 if 42-35 then 8-1 if 35-28 then 1-10 if 28-19 then 10-19 if 27/36,28/37 then 22x31x40x49"],
        },
    };
    if name == "info" {
        return context! { text => info_text(t), ..base };
    }
    if name == "over" {
        // The end leaves no set to show.
        return context! { conditions => (), ..base };
    }
    if name.starts_with("analysis") {
        return analysis_context(s, name, base);
    }
    if name != "digest" {
        return base;
    }
    let moved = t
        .render("moved", base.clone())
        .expect("the moved mail renders");
    let item = context! { subject => moved.subject, text => moved.text, reply_to => REPLY_TO };
    context! { count => 2, items => vec![item.clone(), item] }
}

/// The context of the mails of the bot's analysis: the largest swings,
/// and the whole table of the longest game it lists (200 moves, the
/// longest moves of the game's notation).
fn analysis_context(s: &Sample, name: &str, base: Value) -> Value {
    let long = sample(s.rules, 200);
    let widest = long
        .moves
        .iter()
        .map(|m| m.chars().count())
        .max()
        .unwrap_or(5);
    let tally = context! { inaccuracies => 5, mistakes => 1, blunders => 12 };
    if name == "analysis" {
        let swing = |i: usize| {
            context! { ply => 100 + i, played => &long.moves[i], best => &long.moves[i + 1],
            before => "wins in 12", after => "-12.50", mark => "??" }
        };
        return context! { swings => (0..3).map(swing).collect::<Vec<_>>(), tally, side => "black", ..base };
    }
    let rows: Vec<Value> = long
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            context! { ply => i + 1, played => m, eval => if i % 7 == 0 { "loses in 12" } else { "-12.50" },
            best => (i % 3 == 0).then_some(m), mark => (i % 5 == 0).then_some("?!") }
        })
        .collect();
    let sides = vec![
        context! { side => "black", first => true, tally => tally.clone() },
        context! { side => "red", first => false, tally },
    ];
    context! {
        rows, sides, more => 1234, total => 1434, side => "black",
        widths => context! { ply => 3, played => widest, best => widest }, ..base
    }
}

/// Every kind of mail for `s`'s game.
fn mails_of(t: &Templates, s: &Sample) -> Vec<Mail> {
    let identity = Identity::at("pbem@example.net");
    let now = chrono::DateTime::parse_from_rfc3339("2026-11-20T10:00:00Z")
        .unwrap()
        .to_utc();
    KINDS
        .iter()
        .map(|name| {
            let letter = Letter {
                kind: Kind::News,
                template: name,
                context: context_of(t, s, name),
                to: BOB.into(),
                game: Some("g-2026-11-20-1".into()),
                reply_to: Some(REPLY_TO.into()),
            };
            let reply = t.compose(&letter).unwrap();
            let raw = pbem::mail::outbound::build(
                &identity,
                &reply,
                "<pbem.g-2026-11-20-1.1@example.net>",
                None,
                &[],
                now,
            )
            .unwrap()
            .raw;
            let msg = mail_parser::MessageParser::default().parse(&raw).unwrap();
            let html = msg.body_html(0).unwrap().replace("\r\n", "\n");
            let plain = msg.body_text(0).unwrap().replace("\r\n", "\n");
            Mail {
                slug: s.rules.slug(),
                template: name,
                raw,
                html,
                plain,
            }
        })
        .collect()
}

fn all_mails() -> Vec<(Sample, Vec<Mail>)> {
    let t = Templates::with_strictness(None, false);
    Rules::ALL
        .iter()
        .map(|r| {
            let s = sample(*r, 12);
            let m = mails_of(&t, &s);
            (s, m)
        })
        .collect()
}

#[test]
fn every_template_is_worded_for_the_phone() {
    let all: BTreeSet<&str> = DEFAULTS
        .iter()
        .filter_map(|(n, _)| n.strip_suffix(".txt"))
        .filter(|n| !n.starts_with('_'))
        .collect();
    let mine: BTreeSet<&str> = KINDS.iter().copied().collect();
    assert_eq!(mine, all, "a template this test does not word");
}

#[test]
fn every_mail_fits_its_size() {
    let _g = lock::shared();
    for (s, mails) in all_mails() {
        let html = mails.iter().max_by_key(|m| m.html.len()).unwrap();
        let raw = mails.iter().max_by_key(|m| m.raw.len()).unwrap();
        eprintln!(
            "phone: {}: largest HTML part {} bytes ({}), largest mail {} bytes ({})",
            s.rules.slug(),
            html.html.len(),
            html.template,
            raw.raw.len(),
            raw.template
        );
        for m in &mails {
            let what = format!("{} {}", m.slug, m.template);
            assert!(m.html.len() < MAX_HTML, "{what}: HTML {}", m.html.len());
            assert!(m.raw.len() < MAX_MAIL, "{what}: mail {}", m.raw.len());
            // ASCII in short lines: carried as it is, not encoded a third
            // bigger.
            let raw = String::from_utf8_lossy(&m.raw);
            let part = raw.split("Content-Type: text/html").nth(1).unwrap_or("");
            assert!(
                part.starts_with("; charset=utf-8\r\nContent-Transfer-Encoding: 7bit\r\n"),
                "{what}: {}",
                &part[..part.len().min(80)]
            );
        }
    }
}

#[test]
fn plain_text_lines_fit_72_columns() {
    let _g = lock::shared();
    for (_, mails) in all_mails() {
        for m in &mails {
            // The record between fences reads back as it was written:
            // no pass may break its lines.
            let mut fenced = false;
            for line in m.plain.lines() {
                if pbem::mail::html::is_fence(line) {
                    fenced = !fenced;
                }
                if fenced {
                    continue;
                }
                let n = line.chars().count();
                let board = pbem::mail::html::is_board_row(line);
                let most = if board { 78 } else { 72 };
                assert!(
                    n <= most,
                    "{} {}: {n} columns: {line:?}\n{}",
                    m.slug,
                    m.template,
                    m.plain
                );
            }
        }
    }
}

/// Where the screenshots go: `target/phone-shots/`.
fn shots_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("phone-shots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Measures each framed mail after layout: how wide its document is, and
/// each titled cell of its board table (row and column in the table, the
/// title, the label of its piece, whether the piece is inside the cell).
const MEASURE: &str = r#"<pre id="measured"></pre><script>
window.addEventListener('load', () => {
  const out = [];
  for (const f of document.querySelectorAll('iframe')) {
    const d = f.contentDocument, e = d.documentElement;
    const cells = [];
    const t = d.querySelector('table.b');
    // A cell's column counts the columns the cells before it span.
    if (t) t.querySelectorAll('tr').forEach((tr, r) => { let at = 0; tr.querySelectorAll('td').forEach(td => {
      const c = at; at += td.colSpan;
      const first = td.firstChild && td.firstChild.nodeType === 3 ? td.firstChild.textContent.trim() : '';
      if (!td.title && !/^[0-9]+$/.test(first)) return;
      const b = td.getBoundingClientRect();
      const p = td.querySelector('font,i');
      const q = p ? p.getBoundingClientRect() : null;
      const inside = q ? (q.x + q.width / 2 >= b.x && q.x + q.width / 2 <= b.right &&
        q.y + q.height / 2 >= b.y && q.y + q.height / 2 <= b.bottom) : null;
      cells.push({r, c, title: td.title, number: first, label: p && p.tagName === 'FONT' ? p.textContent : null,
        inside, w: Math.round(b.width), h: Math.round(b.height)});
    }); });
    out.push({id: f.id, sw: Math.max(e.scrollWidth, d.body.scrollWidth), cw: e.clientWidth, cells});
  }
  document.getElementById('measured').textContent = JSON.stringify(out);
});
</script>"#;

#[test]
#[ignore = "needs headless chromium"]
fn every_mail_fits_a_phone_in_chromium() {
    let _g = lock::shared();
    let browser = browser::chromium();
    let dir = shots_dir();
    let all = all_mails();
    for styled in [true, false] {
        let mut page =
            String::from("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head><body>\n");
        for (_, mails) in &all {
            for m in mails {
                let html = if styled {
                    m.html.clone()
                } else {
                    browser::unstyled(&m.html)
                };
                page.push_str(&format!(
                    "<iframe id=\"{}.{}\" width=\"{PHONE}\" height=\"4000\" frameborder=\"0\" srcdoc=\"{}\"></iframe>\n",
                    m.slug, m.template, browser::srcdoc(&html)
                ));
            }
        }
        page.push_str(MEASURE);
        page.push_str("</body></html>\n");
        let file = dir.join(if styled {
            "all-styled.html"
        } else {
            "all-bare.html"
        });
        std::fs::write(&file, &page).unwrap();
        let frames = browser::measured(browser, &file);
        let frames = frames.as_array().unwrap();
        assert_eq!(frames.len(), all.len() * KINDS.len());
        for (s, _) in &all {
            for f in frames.iter().filter(|f| {
                f["id"]
                    .as_str()
                    .unwrap()
                    .starts_with(&format!("{}.", s.rules.slug()))
            }) {
                check_frame(s, f, styled);
            }
        }
    }
    // Each game's move mail; the mails of words alone once.
    let shown = all.iter().flat_map(|(s, mails)| {
        mails.iter().filter(move |m| {
            m.template == "moved"
                || (s.rules == Rules::ALL[0]
                    && ["help", "info", "over", "digest"].contains(&m.template))
        })
    });
    for m in shown {
        let slug = format!("{}-{}", m.slug, m.template);
        for (name, html, width) in [
            ("phone", m.html.clone(), PHONE),
            ("phone-bare", browser::unstyled(&m.html), PHONE),
            ("desktop", m.html.clone(), 1280),
        ] {
            let file = dir.join(format!("{slug}-{name}.html"));
            std::fs::write(&file, html).unwrap();
            let shot = dir.join(format!("{slug}-{name}.png"));
            let arg = format!("--screenshot={}", shot.display());
            let size = format!("--window-size={width},1500");
            browser::run(browser, &browser::file_url(&file, ""), &[&arg, &size]);
            let png = std::fs::read(&shot).unwrap();
            assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{}", shot.display());
        }
    }
}

/// One framed mail of `s`'s game: no wider than the phone, and its board
/// (if it shows one) the game's: every square and stone where the board
/// puts it, with its piece's name and label, the piece inside its cell.
fn check_frame(s: &Sample, f: &serde_json::Value, styled: bool) {
    let id = format!("{} ({})", f["id"], if styled { "styled" } else { "bare" });
    assert!(
        f["sw"].as_i64().unwrap() <= i64::from(PHONE),
        "{id}: {} px wide in a {PHONE} px window",
        f["sw"]
    );
    let cells = f["cells"].as_array().unwrap();
    if cells.is_empty() {
        return;
    }
    let b = &s.board;
    let lines = b.points.is_some();
    let mut squares = 0;
    for c in cells {
        let (r, col) = (
            c["r"].as_u64().unwrap() as u8,
            c["c"].as_u64().unwrap() as u8,
        );
        let title = c["title"].as_str().unwrap();
        if lines && r % 2 == 0 {
            let (row, line) = b.shown_line(r / 2, col / 2);
            let p = b
                .crossing(row, line)
                .unwrap_or_else(|| panic!("{id}: {title} on no stone"));
            assert!(title.starts_with(&format!("{}:", p.name)), "{id}: {title}");
            continue;
        }
        let (vr, vc) = if lines {
            ((r - 1) / 2, (col - 1) / 2)
        } else {
            (r, col)
        };
        let sq = b.shown_at(vr, vc);
        let square = &b.squares[sq.index()];
        assert_eq!(c["number"], sq.number().to_string().as_str(), "{id}: {c}");
        let want = match square.piece.is_some() || square.marked {
            true => pbem_engine::board::square_title(b, sq),
            false => String::new(),
        };
        assert_eq!(title, want, "{id}");
        match &square.piece {
            Some(p) => {
                let label = if p.label.is_empty() {
                    "\u{25cf}"
                } else {
                    p.label.as_ref()
                };
                assert_eq!(c["label"], label, "{id}: {title}");
                assert_eq!(c["inside"], true, "{id}: {title}");
            }
            None => assert!(c["label"].is_null(), "{id}: {title}"),
        }
        if styled {
            assert_eq!(c["w"], c["h"], "{id}: {title} is not square");
        }
        squares += 1;
    }
    assert_eq!(squares, b.geometry.squares() as usize, "{id}");
    let stones = b.points.iter().flatten().count();
    assert_eq!(cells.len(), squares + stones, "{id}");
}
