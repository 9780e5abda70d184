//! Tests of the quote table: every row's example is recognised.

use super::*;

#[test]
fn every_pattern_compiles_and_every_example_is_its_rows() {
    // Compiled on first use in a mail: each must compile here.
    for re in [
        &ADDRESS,
        &DATE,
        &SEPARATOR,
        &FROM_LABEL,
        &FORWARD,
        &DAY,
        &TIME,
        &FIELDS,
    ] {
        assert!(!re.as_str().is_empty());
    }
    let rows = SEPARATORS.rows.iter().chain(&SIGNATURES.rows);
    for (_, row) in ATTRIBUTIONS.iter().chain(rows) {
        Regex::new(&ci(row.pattern)).unwrap_or_else(|e| panic!("{}: {e}", row.name));
    }
    assert_eq!(
        SEPARATORS.rows.len() + SIGNATURES.rows.len() + HEADERS.len() + ATTRIBUTIONS.len(),
        TABLE.len()
    );
    for row in TABLE {
        assert!(!row.examples.is_empty(), "{}: no example", row.name);
        for ex in row.examples {
            let lines: Vec<&str> = ex.lines().collect();
            let got = match row.kind {
                Kind::Separator => separator(ex).map(|r| r.name),
                Kind::Signature => signature(ex).map(|r| r.name),
                Kind::Header => header_block(&lines, 0).map(|r| r.name),
                Kind::Attribution => attribution(&lines, 0).map(|(r, _)| r.name),
            };
            assert_eq!(got, Some(row.name), "{}: {ex:?}", row.name);
        }
    }
}

#[test]
fn chatter_is_none_of_it() {
    for line in [
        "On reflection: resign",
        "From 22 I go to 15:",
        "Den här gången: 22-15",
        "Den här gången skrev jag:",
        "Here is what I wrote:",
        "I wrote to the club at 10:00:",
        "22-15",
        "Sent from my iPhone and then 22-15 because why not, it is a long line that goes on",
        "Am I right? 22-15",
        "--- 22-15 ---",
        "From: 22",
    ] {
        let lines = [line, "To: 15"];
        assert!(separator(line).is_none(), "{line}");
        assert!(signature(line).is_none(), "{line}");
        assert!(header_block(&lines, 0).is_none(), "{line}");
        assert!(attribution(&lines, 0).is_none(), "{line}");
    }
    // A move directly above an attribution is not part of it.
    let lines = ["22-15", "pbem <pbem@example.net> wrote:"];
    assert!(attribution(&lines, 0).is_none());
    assert!(attribution(&lines, 1).is_some());
}

#[test]
fn shapes_no_row_names_are_found_by_their_form() {
    for row in GENERIC {
        for ex in row.examples {
            let lines: Vec<&str> = ex.lines().collect();
            let got = match row.kind {
                Kind::Header => header_block(&lines, 0).map(|r| r.name),
                Kind::Separator => separator(ex).map(|r| r.name),
                _ => attribution(&lines, 0).map(|(r, _)| r.name),
            };
            assert!(got.is_some(), "{}: {ex:?}", row.name);
        }
    }
    // Label lines without a date or an address, or fewer than three, are
    // no header block; a colon line without one is no attribution.
    for text in [
        "Move: 22-15\nNote: my best\nAnswer: soon",
        "Subject: a game\nTo: Bob",
        "My move for today:",
        "I wrote to the club at 10:00:",
        "Legal moves: 50-26, 50-29, 50-33",
        "--- 22-15 ---",
        "------------------------------------------",
    ] {
        assert!(separator(text).is_none(), "{text}");
        let lines: Vec<&str> = text.lines().collect();
        assert!(header_block(&lines, 0).is_none(), "{text}");
        assert!(attribution(&lines, 0).is_none(), "{text}");
    }
}

#[test]
fn a_loosened_pattern_leaves_its_counted_repetitions_open_and_nothing_else() {
    for (pattern, loose) in [
        ("^sent from [^:;!?<>]{1,60}$", "^sent from [^:;!?<>]{1,}$"),
        ("a{2,40}b{3}c{0,1}", "a{2,}b{3}c{0,}"),
        (r"x\{1,2}", r"x\{1,2}"),
        ("{", "{"),
        ("a{1,", "a{1,"),
        ("a{,5}", "a{,5}"),
        ("日{1,40}から", "日{1,}から"),
        ("[{1,2}]{1,2}", "[{1,2}]{1,}"),
        (r"[\]{1,2}]x{1,2}", r"[\]{1,2}]x{1,}"),
    ] {
        assert_eq!(loosened(pattern), loose, "{pattern}");
    }
    // What a row matches, its loosened pattern matches too.
    for row in TABLE
        .iter()
        .filter(|r| matches!(r.kind, Kind::Separator | Kind::Signature))
    {
        let loose = Regex::new(&ci(&loosened(row.pattern))).unwrap();
        for ex in row.examples {
            assert!(loose.is_match(clean(ex)), "{}: {ex}", row.name);
        }
    }
}

/// The gates of the separator and signature sets let through every line
/// a row of theirs matches, in any case and with stars or spaces around
/// (what [`clean`] takes off), and keep out the lines a move mail is
/// made of.
#[test]
fn the_gates_let_through_every_line_their_rows_match() {
    for set in [&*SEPARATORS, &*SIGNATURES] {
        let gate = set.gate.as_ref().expect("a gate for the set");
        let mut tried = 0;
        for row in TABLE {
            for ex in row.examples {
                for line in [
                    ex.to_string(),
                    ex.to_uppercase(),
                    ex.to_lowercase(),
                    format!("  **{ex}**  "),
                ] {
                    let clean = clean(&line);
                    if set.loose().is_match(clean) {
                        tried += 1;
                        assert!(gate.may_match(clean), "{}: {line:?}", row.name);
                    }
                }
            }
        }
        assert!(tried >= set.rows.len(), "{tried} lines tried");
        for line in [
            "22-15",
            "> 22-15",
            "move 12x19",
            "Thanks for the game!",
            "On Sat",
        ] {
            assert!(!gate.may_match(line), "{line:?}");
        }
    }
}

/// [`same_letter`] holds of every letter a regex that ignores case takes
/// for a letter of a gate (its simple case folding, read from the
/// regex's own class for the letter).
#[test]
fn same_letter_holds_of_every_case_variant_a_regex_accepts() {
    use regex_syntax::hir::{Class, HirKind};
    let gates = [&*SEPARATORS, &*SIGNATURES].map(|s| s.gate.as_ref().unwrap());
    let letters: std::collections::BTreeSet<char> = gates
        .iter()
        .flat_map(|g| g.starts.iter().chain(g.ends))
        .flat_map(|l| l.chars())
        .collect();
    assert!(letters.len() > 40, "{letters:?}");
    for l in letters
        .iter()
        .copied()
        .chain(['k', 's', 'σ', 'ß', 'θ', 'µ', 'ǅ'])
    {
        let hir = regex_syntax::parse(&format!("(?i){}", regex::escape(&l.to_string()))).unwrap();
        let variants: Vec<char> = match hir.kind() {
            HirKind::Class(Class::Unicode(c)) => c
                .ranges()
                .iter()
                .flat_map(|r| r.start()..=r.end())
                .collect(),
            _ => vec![l],
        };
        for c in variants {
            assert!(gate::same_letter(c, l), "{c:?} for {l:?}");
        }
    }
}
