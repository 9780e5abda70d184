//! The mails pbem really sends, as a player reads them on a phone: for
//! every game, a game played by mail (begun by the admin with a clock;
//! the board and the legal moves asked for, a wrong move, a move, a draw
//! offered and declined, `help` and `games`, a resignation) and a
//! stranger's mails. Every mail sent is held to the bounds a phone sets:
//! small (HTML part under 10 KB, the whole mail under 16 KB), its plain
//! text at most 72 columns (board rows at most 78), times for people and
//! not machine dumps, people in subjects by name and not by address, and
//! in headless Chromium at 360 px no wider than the screen, with its
//! `<style>` block and without it.

use crate::common::club::Club;
use crate::common::pbem_setup::Sent;
use crate::common::{browser, lock};
use pbem::rules::Rules;
use std::process::Command;

const MAX_HTML: usize = 10 * 1024;
const MAX_MAIL: usize = 16 * 1024;
const PHONE: i64 = 360;

/// The first legal move of game `id` of `club`, as `pbem moves` lists it.
fn a_legal_move(club: &Club, id: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(format!("{id}.toml"));
    std::fs::write(&file, club.pbem.record(id)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .arg("moves")
        .arg(&file)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines().next().expect("a legal move").to_string()
}

/// Plays one game of `rules` by mail between Ann and Bob, and lets Cy,
/// a stranger, write; returns the club with every mail sent.
fn played(rules: Rules) -> Club {
    let mut club = Club::new(&[
        ("Ann Lee", "ann@example.org"),
        ("Bob Marsh", "bob@example.org"),
        ("Cy", "cy@example.org"),
    ]);
    let sides = &rules.info().sides;
    let ann = format!("{}=Ann Lee <ann@example.org>", sides[0]);
    let bob = format!("{}=Bob Marsh <bob@example.org>", sides[1]);
    let first = rules.side_name(rules.fixed_first().unwrap_or(pbem::game::Side::A));
    let id = format!("{}-1", rules.id_prefix());
    let out = club.run(&[
        "new",
        rules.slug(),
        "--id",
        &id,
        "--first",
        first,
        "--clock",
        "3d",
        "--player",
        &ann,
        "--player",
        &bob,
    ]);
    assert!(!club.players[0].received.is_empty(), "{out}");
    let mover = usize::from(rules.fixed_first() == Some(pbem::game::Side::B));
    let other = 1 - mover;
    club.say(mover, &id, "board");
    club.say(mover, &id, "moves");
    club.say(mover, &id, "99-98");
    let mv = a_legal_move(&club, &id);
    let log = club.say(mover, &id, &mv);
    assert!(log.contains("played"), "{mv}: {log}");
    club.say(other, &id, "draw");
    club.say(mover, &id, "decline draw");
    club.say(other, &id, "help");
    club.say(other, &id, "games");
    let log = club.say(other, &id, "resign");
    assert!(log.contains("resigned"), "{log}");
    club.send(2, "hello there");
    club.send(2, &format!("challenge {} ann@example.org", rules.slug()));
    club.send(2, "standings spring");
    club.poll();
    club
}

/// The plain text of `mail` outside the record's fences, and its HTML
/// part.
fn parts(mail: &Sent) -> (String, String) {
    let msg = mail_parser::MessageParser::default()
        .parse(&mail.raw)
        .unwrap();
    let plain = msg.body_text(0).unwrap().replace("\r\n", "\n");
    let html = msg.body_html(0).unwrap().replace("\r\n", "\n");
    let mut fenced = false;
    let prose: Vec<&str> = plain
        .lines()
        .filter(|l| {
            if pbem::mail::html::is_fence(l) {
                fenced = !fenced;
                return false;
            }
            !fenced
        })
        .collect();
    (prose.join("\n"), html)
}

/// The record a mail carries between its fences, if it carries one,
/// reads back and replays: `pbem validate` takes it as it is.
fn check_record(what: &str, mail: &Sent) -> bool {
    let msg = mail_parser::MessageParser::default()
        .parse(&mail.raw)
        .unwrap();
    let plain = msg.body_text(0).unwrap().replace("\r\n", "\n");
    let mut fenced = plain
        .split('\n')
        .skip_while(|l| !pbem::mail::html::is_fence(l));
    if fenced.next().is_none() {
        return false;
    }
    let record: Vec<&str> = fenced
        .take_while(|l| !pbem::mail::html::is_fence(l))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mailed.toml");
    std::fs::write(&file, record.join("\n") + "\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .arg("validate")
        .arg(&file)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && said.contains(": ok"),
        "{what}: {said}"
    );
    true
}

/// The bounds a phone sets that need no browser.
fn check_words(rules: Rules, mail: &Sent) {
    let what = format!("{} to {}: {}", rules.slug(), mail.to, mail.subject());
    let (prose, html) = parts(mail);
    assert!(
        mail.raw.len() < MAX_MAIL,
        "{what}: {} bytes",
        mail.raw.len()
    );
    assert!(html.len() < MAX_HTML, "{what}: HTML {} bytes", html.len());
    for line in prose.lines() {
        let most = if pbem::mail::html::is_board_row(line) {
            78
        } else {
            72
        };
        let n = line.chars().count();
        assert!(n <= most, "{what}: {n} columns: {line:?}\n{prose}");
        // A machine's time (`2026-11-25T10:00:00Z`) is for the record.
        let machine = line.char_indices().any(|(i, c)| {
            c == 'T'
                && line[..i].ends_with(|d: char| d.is_ascii_digit())
                && line[i + 1..]
                    .chars()
                    .take(8)
                    .filter(char::is_ascii_digit)
                    .count()
                    == 6
        });
        assert!(!machine, "{what}: a machine time in {line:?}");
    }
    assert!(
        !mail.subject().contains('@'),
        "{what}: an address as a name"
    );
}

/// Reports each frame's laid-out width.
const MEASURE: &str = r#"<pre id="measured"></pre><script>
window.addEventListener('load', () => {
  const out = [];
  for (const f of document.querySelectorAll('iframe')) {
    const d = f.contentDocument, e = d.documentElement;
    out.push([f.id, Math.max(e.scrollWidth, d.body.scrollWidth)]);
  }
  document.getElementById('measured').textContent = JSON.stringify(out);
});
</script>"#;

/// Every mail's HTML part at 360 px, with and without its style: the
/// widths Chromium laid them out at.
fn widths(browser: &str, mails: &[(String, String)]) -> Vec<(String, i64)> {
    let dir = tempfile::tempdir().unwrap();
    let mut page =
        String::from("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head><body>\n");
    for (i, (what, html)) in mails.iter().enumerate() {
        for (how, html) in [("styled", html.clone()), ("bare", browser::unstyled(html))] {
            let doc = browser::srcdoc(&html);
            let id = format!("{i} {how} {what}").replace('"', "'");
            page.push_str(&format!(
                "<iframe id=\"{}\" width=\"{PHONE}\" height=\"3000\" frameborder=\"0\" srcdoc=\"{doc}\"></iframe>\n",
                id.replace('&', "&amp;").replace('<', "&lt;")
            ));
        }
    }
    page.push_str(MEASURE);
    page.push_str("</body></html>\n");
    let file = dir.path().join("mails.html");
    std::fs::write(&file, &page).unwrap();
    let rows: Vec<(String, i64)> =
        serde_json::from_value(browser::measured(browser, &file)).unwrap();
    assert_eq!(rows.len(), 2 * mails.len(), "every mail laid out");
    rows
}

/// Every game of [`played`], with the mails pbem sent in it.
fn every_game_sent() -> Vec<(Rules, Vec<Sent>)> {
    Rules::ALL
        .into_iter()
        .map(|rules| (rules, played(rules).pbem.sent()))
        .collect()
}

#[test]
fn every_mail_of_a_game_by_mail_keeps_to_a_phones_bounds() {
    let _shared = lock::shared();
    for (rules, sent) in every_game_sent() {
        let list: Vec<String> = sent
            .iter()
            .map(|m| {
                format!(
                    "{}: {} | {}",
                    m.to,
                    m.subject(),
                    parts(m).0.lines().next().unwrap_or("")
                )
            })
            .collect();
        assert!(sent.len() >= 19, "{}: {list:#?}", rules.slug());
        let mut records = 0;
        for mail in &sent {
            check_words(rules, mail);
            let what = format!("{} to {}: {}", rules.slug(), mail.to, mail.subject());
            records += usize::from(check_record(&what, mail));
        }
        assert_eq!(
            records,
            2,
            "{}: the end's record, to each player",
            rules.slug()
        );
    }
}

#[test]
#[ignore = "needs headless chromium"]
fn every_mail_of_a_game_by_mail_fits_a_phone_in_chromium() {
    let _shared = lock::shared();
    let browser = browser::chromium();
    let mut htmls = Vec::new();
    for (rules, sent) in every_game_sent() {
        for mail in &sent {
            let what = format!("{} to {}: {}", rules.slug(), mail.to, mail.subject());
            htmls.push((what, parts(mail).1));
        }
    }
    for (what, width) in widths(browser, &htmls) {
        assert!(
            width <= PHONE,
            "{what}: {width} px wide in a {PHONE} px window"
        );
    }
}
