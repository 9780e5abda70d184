//! Conditional moves: `if THEIRS then MINE`, a chain on one line
//! (`if 50-42 then 15-8 if 42-35 then 8-1`), one line per answer of the
//! opponent; `conditions` lists them, `cancel conditions` drops them.
//! Read here as text; whether each move is legal where it applies is the
//! adjudicator's to say.

use super::{Command, LineError, move_like, moves_in, shorten_word};

/// The most pairs one line chains: a line is at most
/// [`super::MAX_LINE`] characters anyway, and a longer plan is a guess.
pub const MAX_PAIRS: usize = 8;

/// `if ...` (`lower`: the line's words, lowercased; `words`: as written):
/// a conditional line, `Ok(None)` when the word after `if` holds no digit
/// (`if you like, then ...`: chatter).
pub(super) fn parse_condition(
    words: &[&str],
    lower: &[String],
) -> Result<Option<Command>, LineError> {
    if !words
        .get(1)
        .is_some_and(|w| w.chars().any(|c| c.is_ascii_digit()))
    {
        return Ok(None);
    }
    let mut pairs = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if lower[i] != "if" {
            return Err(LineError::Condition {
                word: Some(shorten_word(words[i])),
            });
        }
        let theirs = part(words, lower, &mut i, "then")?;
        let mine = part(words, lower, &mut i, "if")?;
        pairs.push((theirs, mine));
    }
    if pairs.len() > MAX_PAIRS {
        return Err(LineError::LongCondition {
            pairs: pairs.len(),
            most: MAX_PAIRS,
        });
    }
    Ok(Some(Command::Condition(pairs)))
}

/// The move after the keyword at `*i` up to `until` (`then` after
/// `if`, `if` or the line's end after `then`); `*i` is left on `until`.
fn part(words: &[&str], lower: &[String], i: &mut usize, until: &str) -> Result<String, LineError> {
    let start = *i + 1;
    let mut end = start;
    while end < words.len() && lower[end] != "if" && lower[end] != "then" {
        end += 1;
    }
    let closed = match until {
        "then" => end < words.len() && lower[end] == "then",
        _ => end == words.len() || lower[end] == "if",
    };
    if !closed || start >= end {
        return Err(LineError::Condition { word: None });
    }
    *i = end;
    let text = words[start..end]
        .join(" ")
        .trim_end_matches([',', ';', '.', ':'])
        .to_string();
    let bad = || LineError::Condition {
        word: Some(shorten_word(&text)),
    };
    match moves_in(&text) {
        Some(moves) => match <[String; 1]>::try_from(moves) {
            Ok([one]) => Ok(one),
            Err(_) => Err(bad()),
        },
        None if move_like(&text) => Ok(text.clone()),
        None => Err(bad()),
    }
}

/// `conditions`, `cancel conditions`, `conditions off`: `None` when the
/// words are none of these.
pub(super) fn conditions_command(lower: &[String]) -> Option<Command> {
    let words: Vec<&str> = lower.iter().map(String::as_str).collect();
    match words.as_slice() {
        ["conditions" | "conditionals"] => Some(Command::Conditions),
        ["cancel" | "drop" | "clear", "conditions" | "conditionals"]
        | ["conditions" | "conditionals", "off" | "none"]
        | ["no", "conditions" | "conditionals"] => Some(Command::CancelConditions),
        _ => None,
    }
}

/// A conditional line as written back: `if 50-42 then 15-8 if 42-35
/// then 8-1`.
pub fn condition_text(pairs: &[(String, String)]) -> String {
    pairs
        .iter()
        .map(|(theirs, mine)| format!("if {theirs} then {mine}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::super::parse_line;
    use super::*;

    fn pairs(line: &str) -> Vec<(String, String)> {
        match parse_line(line) {
            Ok(Some(Command::Condition(p))) => p,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn a_chain_reads_pair_by_pair() {
        assert_eq!(
            pairs("if 50-42 then 15-8 if 42-35 then 8-1"),
            [
                ("50-42".to_string(), "15-8".to_string()),
                ("42-35".to_string(), "8-1".to_string())
            ]
        );
        assert_eq!(
            pairs("IF 50 - 42, THEN 15-8"),
            [("50-42".into(), "15-8".into())]
        );
        // A Guerrilla placement is one move, however its points are set.
        assert_eq!(
            pairs("if 27/36 28/37 then 22x31"),
            [("27/36,28/37".into(), "22x31".into())]
        );
        assert_eq!(
            pairs("if 12-20:2 then L3-19"),
            [("12-20:2".into(), "L3-19".into())]
        );
        assert_eq!(
            condition_text(&pairs("if 50-42 then 15-8 if 42-35 then 8-1")),
            "if 50-42 then 15-8 if 42-35 then 8-1"
        );
    }

    #[test]
    fn words_after_if_are_chatter() {
        for line in ["if you like, then", "if", "If only I had seen it"] {
            assert_eq!(parse_line(line), Ok(None), "{line}");
        }
    }

    #[test]
    fn a_broken_line_says_how_to_write_it() {
        for line in [
            "if 50-42 then",
            "if 50-42 15-8",
            "if 50-42 then 15-8 42-35",
            "if 50-42 then 15-8 then 8-1",
            "if 50-42 then 15-8 and 42-35",
            "if 50-42 then please",
            "if 50-42 then 15-8 if",
        ] {
            let e = parse_line(line).expect_err(line).to_string();
            assert!(e.contains("if 50-42 then 15-8"), "{line}: {e}");
        }
        let long = "if 1-2 then 3-4 ".repeat(MAX_PAIRS + 1);
        let e = parse_line(long.trim()).expect_err("long").to_string();
        assert!(e.contains("at most 8"), "{e}");
    }

    #[test]
    fn listing_and_cancelling() {
        assert_eq!(parse_line("conditions"), Ok(Some(Command::Conditions)));
        for line in ["cancel conditions", "Conditions off", "no conditions"] {
            assert_eq!(
                parse_line(line),
                Ok(Some(Command::CancelConditions)),
                "{line}"
            );
        }
        assert_eq!(parse_line("conditions are good"), Ok(None));
    }
}
