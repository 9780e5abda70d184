//! The adjudicator's command parser (src/mail/command/) on any body text,
//! after the cleaning a mail body gets (src/mail/text/), as plain text
//! and as HTML. Invariants: nothing panics; every command parsed writes a
//! line that parses back to the same command.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pbem::mail::command::{self, Command};
use pbem::mail::text;

fuzz_target!(|data: &[u8]| {
    let raw = String::from_utf8_lossy(data);
    for body in [
        text::strip_quotes(&text::normalize(&raw)),
        text::strip_quotes(&text::normalize(&text::html_to_text(&raw))),
    ] {
        let parsed = command::parse(&body);
        for c in &parsed.commands {
            round_trip(c);
        }
        for e in &parsed.errors {
            let _ = e.to_string();
        }
    }
});

fn round_trip(c: &Command) {
    let line = match c {
        // A bare move is kept as it came (inner spaces too); written after
        // `move` it is a command whatever it looks like, its words the same.
        Command::Move { number: None, text } => {
            let again = command::parse_line(&format!("move {text}"));
            let words = |t: &str| t.split_whitespace().map(str::to_string).collect::<Vec<_>>();
            match again {
                Ok(Some(Command::Move {
                    number: None,
                    text: t,
                })) => {
                    assert_eq!(words(&t), words(text), "{c:?}")
                }
                other => panic!("{c:?} written as `move {text}` reads {other:?}"),
            }
            return;
        }
        // `#3 move move 22-15` keeps one `move` in its text, which the
        // written `#3 move 22-15` loses; both are refused as moves.
        Command::Move {
            number: Some(_),
            text,
        } if text
            .split_whitespace()
            .next()
            .is_some_and(|w| w.eq_ignore_ascii_case("move")) =>
        {
            return;
        }
        Command::Token(t) => format!("token {t}"),
        c => c.to_string(),
    };
    let again = command::parse_line(&line);
    assert_eq!(again, Ok(Some(c.clone())), "{c:?} written as `{line}`");
}
