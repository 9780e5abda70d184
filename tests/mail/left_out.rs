//! A bad line never costs a good move: the real `pbem poll` reads a
//! player's mail in game `bz-test1` (Boom & Zoom, black to play move #3,
//! where `13-21` is legal) holding a good command beside a line that is
//! none. A caption (`Legal moves: ...`) is chatter; a command gone wrong
//! is left out, the rest carried out, and the sender told which line and
//! why in the first mail pbem sends them for the mail, never the
//! opponent; two moves, or a move and `resign`, refuse the mail whole.
//!
//! ```text
//! cargo test --test mail left_out::
//! ```

use crate::common::pbem_setup;

use pbem_setup::{ALICE, ALICE_KEY, ALICE_REPLY_TO, BOB_KEY, PBEM, Pbem, Sent, bz_record};

const NOW: &str = "2026-11-20T10:00:00Z";

/// Two moves played; black (Alice) to play move #3.
const STARTED: &str = "\
1. black 6-13  2026-11-19T09:17:00Z <bz1.1@example.org>
2. red   61-34 2026-11-19T11:33:00Z <bz1.2@example.org>
";

/// What the note of lines left out starts with, quoting them or not.
const NOTE: &str = "pbem could not read";

/// What one mail made pbem do.
struct Polled {
    before: String,
    after: String,
    log: String,
    sent: Vec<Sent>,
}

impl Polled {
    fn to(&self, who: &str) -> Vec<&Sent> {
        self.sent.iter().filter(|s| s.to == who).collect()
    }

    /// The one mail to `who`, or a failure that shows what was sent.
    fn only_to(&self, who: &str) -> &Sent {
        let to = self.to(who);
        assert_eq!(to.len(), 1, "one mail to {who}; {self}");
        to[0]
    }

    /// Black's move #3 in the record is `m`.
    fn played(&self, m: &str) -> bool {
        self.after.lines().any(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            w.len() > 3 && w[..3] == ["3.", "black", m]
        })
    }
}

impl std::fmt::Display for Polled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "log:\n{}", self.log)?;
        for s in &self.sent {
            writeln!(f, "to {}: {}\n{}", s.to, s.subject(), s.text())?;
        }
        Ok(())
    }
}

/// A mail from `from` to `to` with `subject` and `body`, polled once by
/// a fresh pbem whose bz-test1 waits for black's move #3.
fn poll(from: &str, to: &str, subject: &str, body: &str) -> Polled {
    let _shared = crate::common::lock::shared();
    let mut p = Pbem::new();
    p.write_game(
        "bz-test1",
        &bz_record("bz-test1", "*", STARTED),
        [ALICE_KEY, BOB_KEY],
    );
    let before = p.record("bz-test1");
    p.deliver(
        format!(
            "From: {from}\nTo: {to}\nSubject: {subject}\n\
             Date: Fri, 20 Nov 2026 10:59:00 +0100\nMessage-ID: <left.out@example.org>\n\
             MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n{body}"
        )
        .as_bytes(),
    );
    let log = p.poll(NOW);
    Polled {
        after: p.record("bz-test1"),
        before,
        log,
        sent: p.sent(),
    }
}

/// Alice's reply in her game, carrying her key.
fn alice(body: &str) -> Polled {
    poll(
        ALICE,
        ALICE_REPLY_TO,
        "Re: [pbem bz-test1] Boom & Zoom",
        body,
    )
}

/// Every line of a mail's text fits a phone's 72 columns.
fn phone_sized(s: &Sent) {
    for l in s.text().lines() {
        assert!(l.chars().count() <= 72, "{l:?} in\n{}", s.text());
    }
}

fn html_of(s: &Sent) -> String {
    mail_parser::MessageParser::default()
        .parse(&s.raw)
        .and_then(|m| m.body_html(0).map(|h| h.into_owned()))
        .unwrap_or_default()
}

#[test]
fn a_caption_quoted_beside_a_move_is_chatter_and_the_move_is_played() {
    let p = alice("13-21\n\nLegal moves: 50-26, 50-29, 50-33\nFrom 50: 50-26, 50-29\nZug: 6-14\n");
    assert!(p.played("13-21"), "{p}");
    assert!(
        p.log.contains("fate=\"bz-test1: black played 13-21\""),
        "{p}"
    );
    assert_eq!(p.sent.len(), 2, "{p}");
    for s in &p.sent {
        assert!(!s.text().contains(NOTE), "{p}");
    }
}

#[test]
fn a_command_gone_wrong_beside_a_move_is_left_out_and_named_to_the_sender_only() {
    let p = alice("13-21\naccept drwa\n");
    assert!(p.played("13-21"), "{p}");
    assert!(p.log.contains("(1 line left out)"), "{p}");
    let news = p.only_to("alice@example.org");
    let text = news.text();
    assert!(news.headline().starts_with("Black played 13-21 "), "{p}");
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "- `accept drwa`: write `accept` (a challenge), `accept draw` or `accept takeback`"
        ),
        "{p}"
    );
    assert!(text.contains("this line of your mail as a command"), "{p}");
    // Above the footer, in the HTML part too.
    assert!(text.find("accept drwa") < text.find("\n--\n"), "{p}");
    assert!(html_of(news).contains("accept drwa"), "{}", html_of(news));
    phone_sized(news);
    let bob = p.only_to("bob@example.org");
    assert!(
        !bob.text().contains("drwa") && !bob.text().contains(NOTE),
        "{p}"
    );
    assert!(!html_of(bob).contains("drwa"), "{p}");
}

#[test]
fn a_move_and_resign_refuse_the_mail_as_ambiguous() {
    let p = alice("13-21\nresign\n");
    assert_eq!(p.after, p.before, "nothing played: {p}");
    let refusal = p.only_to("alice@example.org");
    let text = refusal.text();
    assert!(text.contains("was not accepted"), "{p}");
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("play on or give up"), "{p}");
    assert!(words.contains("`resign` alone"), "{p}");
    assert!(p.to("bob@example.org").is_empty(), "{p}");
    phone_sized(refusal);
}

#[test]
fn two_attempts_at_a_move_refuse_the_mail_naming_both() {
    let p = alice("13-21\n#13 23-x1x\n");
    assert_eq!(p.after, p.before, "nothing played: {p}");
    let text = p.only_to("alice@example.org").text();
    assert!(text.contains("one move per mail"), "{p}");
    assert!(text.contains("(13-21, #13 23-x1x)"), "{p}");
    assert!(p.to("bob@example.org").is_empty(), "{p}");
}

#[test]
fn the_board_asked_beside_a_bad_command_comes_with_the_note() {
    let p = alice("board\nrules chess\n");
    assert_eq!(p.after, p.before, "{p}");
    let board = p.only_to("alice@example.org");
    let text = board.text();
    assert!(
        board.headline().starts_with("The board, as you asked"),
        "{p}"
    );
    assert!(text.contains("- `rules chess`: unknown game"), "{p}");
    assert!(html_of(board).contains("rules chess"), "{p}");
    phone_sized(board);
    assert!(p.to("bob@example.org").is_empty(), "{p}");
}

#[test]
fn a_sender_not_proven_is_told_how_many_lines_were_left_out_not_what() {
    let p = poll(
        "Carol Example <carol@example.org>",
        PBEM,
        "pbem?",
        "help\nrules chess\naccept drwa\n",
    );
    let help = p.only_to("carol@example.org");
    let text = help.text();
    assert!(text.contains("pbem referees board games"), "{p}");
    assert!(
        text.contains("2 lines of your mail as commands, and left them out"),
        "{p}"
    );
    assert!(!text.contains("chess") && !text.contains("drwa"), "{p}");
    assert!(!html_of(help).contains("drwa"), "{p}");
    phone_sized(help);
}
