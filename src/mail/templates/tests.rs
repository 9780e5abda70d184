//! The templates' tests: every default renders, no line reads as a
//! command, the passes over the text, a board worded once.

use super::*;
use minijinja::context;

/// An admin's folder holding `file` with `text`, and the templates over
/// it (kept with the folder).
fn admin(file: &str, text: &str) -> (tempfile::TempDir, Templates) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(file), text).unwrap();
    let t = Templates::new(Some(dir.path().to_path_buf()));
    (dir, t)
}

/// Under test a misspelt key is an error, not a gap in the mail; in
/// use it renders as nothing.
#[test]
fn a_misspelt_key_fails_under_test_and_renders_as_nothing_in_use() {
    let (dir, strict) = admin(
        "help.txt",
        "Subject: [pbem] help\n\nHello {{ pbem_adress }}.\n",
    );
    let ctx = || context! { pbem_address => "pbem@example.org" };
    let e = strict.render("help", ctx()).unwrap_err();
    assert!(e.to_string().contains("help"), "{e}");
    let lenient = Templates::with_strictness(Some(dir.path().to_path_buf()), false);
    assert_eq!(
        lenient.render("help", ctx()).unwrap().text.trim(),
        "Hello ."
    );
}

#[test]
fn every_default_renders() {
    // Each template with a few values only: its subject is the point.
    let t = Templates::with_strictness(None, false);
    for (name, _) in DEFAULTS {
        let Some(n) = name.strip_suffix(".txt") else {
            continue;
        };
        if n.starts_with('_') {
            continue;
        }
        let r = t
            .render(
                n,
                context! { id => "bz-1", game => "Boom & Zoom", what => "x", title => "t" },
            )
            .unwrap();
        assert!(r.subject.starts_with("[pbem"), "{n}: {}", r.subject);
    }
}

/// A body with a board is worded once, its text taken from the
/// wording with the board's mark: the same mail, both parts, as the
/// body worded twice (as it is for an admin's templates), for every
/// built-in template, with a board turned and not.
#[test]
fn a_board_worded_once_gives_the_mail_worded_twice() {
    use crate::game::{Game, View};
    use pbem_engine::games::boom_and_zoom::BoomAndZoom;
    use pbem_engine::side::Side;
    let once = Templates::with_strictness(None, false);
    let dir = tempfile::tempdir().unwrap();
    let twice = Templates::with_strictness(Some(dir.path().to_path_buf()), false);
    let pos = BoomAndZoom::start(Side::A);
    let mut shown = 0;
    let seated = View {
        seat: Some(Side::A),
        ..View::default()
    };
    for view in [View::default(), seated] {
        let board = super::super::board::board(&pos, &view);
        for (name, _) in DEFAULTS {
            let Some(n) = name.strip_suffix(".txt").filter(|n| !n.starts_with('_')) else {
                continue;
            };
            let ctx = context! { id => "bz-1", game => "Boom & Zoom", what => "x", title => "t",
            board => board.clone(), next => 3, example => "1-9", yours => true };
            let (a, b) = (
                once.render(n, ctx.clone()).unwrap(),
                twice.render(n, ctx).unwrap(),
            );
            assert_eq!(
                (&a.subject, &a.text, &a.html),
                (&b.subject, &b.text, &b.html),
                "{n}"
            );
            shown += usize::from(a.html.is_some());
        }
    }
    assert!(shown >= 4, "{shown} mails showed the board");
}

#[test]
fn an_admin_folder_overrides_and_subjects_stay_one_line() {
    let (_dir, t) = admin("info.txt", "Subject: Hi {{ title }}\n\nCustom {{ text }}\n");
    let r = t
        .render(
            "info",
            context! { title => "a\r\nBcc: x@evil", text => "body" },
        )
        .unwrap();
    assert_eq!(r.subject, "Hi a  Bcc: x@evil");
    assert_eq!(r.text, "Custom body\n");
}

#[test]
fn no_line_reads_as_a_command() {
    let (_dir, t) = admin("info.txt", "Subject: x\n\n{{ text }}\n");
    let text = "Other commands are these:\nresign now or\nboard\nrules = \"mad\"\n\n22-15\n";
    let r = t.render("info", context! { text }).unwrap();
    for line in r.text.lines() {
        assert!(
            !crate::mail::command::reads_as_command(line),
            "{line:?} in\n{}",
            r.text
        );
    }
    // The words stay, in their order.
    let words = |s: &str| {
        s.split_whitespace()
            .filter(|w| *w != "-")
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(words(&r.text), words(text));
    assert!(r.text.contains("- 22-15"), "{}", r.text);
}

#[test]
fn the_last_pass_fits_every_line_to_72_columns() {
    let long = "word ".repeat(30);
    let point = format!("- {long}");
    let board = format!("|{}  57-64", " R3 |".repeat(16));
    let fence = "-".repeat(72);
    let record = format!("black = \"{long}\"");
    let text = format!("{long}\n  {long}\n{point}\n{board}\n{fence}\n{record}\n{fence}\n");
    let out = fit(&text);
    let lines: Vec<&str> = out.lines().collect();
    for l in &lines {
        assert!(l.len() <= WIDTH || *l == board || *l == record, "{l:?}");
    }
    // Indents hang: the rest of an indented line under its indent, the
    // rest of a point of a list under its text.
    assert!(lines.iter().filter(|l| l.starts_with("  word")).count() > 2);
    assert!(lines.iter().any(|l| l.starts_with("- word")));
    assert!(out.contains(&board) && out.contains(&record), "{out}");
}

#[test]
fn a_wrap_never_starts_a_line_with_a_number_of_a_list() {
    let text = format!("{} see rule 2. then go on to the next part", "x".repeat(61));
    assert!(fit(&text).contains("\nrule 2. then"), "{}", fit(&text));
    let out = fit(&text);
    for l in out.lines() {
        assert!(!l.starts_with("2. "), "{out}");
        assert!(l.len() <= WIDTH, "{out}");
    }
}

#[test]
fn a_line_made_inert_stays_in_72_columns() {
    let text = format!("{} resign now", "y ".repeat(34).trim_end());
    let out = inert(fit(&text));
    for l in out.lines() {
        assert!(l.len() <= WIDTH, "{out}");
        assert!(!crate::mail::command::reads_as_command(l), "{out}");
    }
}

/// A paragraph wrapped a little wider than 72 (a game's summary) is
/// filled again as one paragraph: no line of one word; a table's
/// indented rows below it and a list are left as they are.
#[test]
fn a_paragraph_wrapped_wider_is_filled_again_whole() {
    let text = "A tower of height h zooms 1..h squares in a straight line through empty\n\
                squares, or booms an enemy tower 1..h squares away with only empty squares\n\
                between: the target loses its top checker.\n  place 1: Ann, 1 point\n  place 2: Bob, 0 points\n";
    let out = fit(text);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.iter().all(|l| l.len() <= WIDTH), "{out}");
    assert!(
        lines.iter().all(|l| l.split_whitespace().count() > 1),
        "{out}"
    );
    assert!(
        out.ends_with("\n  place 1: Ann, 1 point\n  place 2: Bob, 0 points\n"),
        "{out}"
    );
    let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(words(&out), words(text));
}

/// A quoted move wider than a line, after a line it could take a word
/// from: the pass ends, and leaves no line that reads as a command.
#[test]
fn a_word_wider_than_a_line_is_made_inert_once() {
    let word = format!("{}1", "13-".repeat(30));
    for text in [
        format!("  | please play\n  {word}\n  ...\n"),
        format!("play {word} {word} now\n"),
    ] {
        let out = inert(fit(&text));
        for l in out.lines() {
            assert!(!crate::mail::command::reads_as_command(l), "{out}");
        }
        assert!(out.contains(&word), "{out}");
    }
}

#[test]
fn long_lines_wrap_with_their_indent() {
    let (_dir, t) = admin(
        "info.txt",
        "Subject: x\n\n  {{ text | wrap(30, \"  \") }}\n",
    );
    let r = t
        .render(
            "info",
            context! { text => "one two three four five six seven eight\nnine" },
        )
        .unwrap();
    assert_eq!(
        r.text,
        "  one two three four five six\n  seven eight\n  nine\n"
    );
}
