//! The shapes of a move, a time, a date and a caption in a player's
//! words: what a line is tried against before it is read as a move or a
//! command. Each has a pattern (a [`Twin`]) and, for ASCII text, the
//! commonest, a reader by hand that takes exactly what the pattern takes:
//! a process that handles one mail would otherwise compile five patterns
//! for the few lines of its replies that hold a digit or a colon (about a
//! tenth of its instructions), and a poll of many mails runs them over
//! every such line. The tests hold each reader against its pattern over
//! thousands of random lines.

use crate::mail::twin::Twin;

/// A time of day or a date, `12:33`, `12:33:00`, `20/11/26`: no move's
/// form, but move-like to [`move_like`] (M.A.D.'s `12-20:2`, Guerrilla's
/// `27/36`); attribution lines are full of them.
static CLOCK_OR_DATE: Twin = Twin::new(
    r"^(([01]?\d|2[0-3]):[0-5]\d(:[0-5]\d)?|\d{1,2}/\d{1,2}/\d{2,4})$",
    r#"(?:\A((?:(?:((?:(?:[01]?[0-9])|(?:2[0-3]))):[0-5][0-9]((?::[0-5][0-9]))?)|(?:[0-9]{1,2}/[0-9]{1,2}/[0-9]{2,4})))\z)"#,
);

/// Looks like a move: digits with move punctuation (every dash that
/// [`crate::notation::parse`] reads as `-`), an optional lunge prefix,
/// `off`, points (`27/36,28/37`).
static MOVE_LIKE: Twin = Twin::new(
    r"(?i)^l?\d{1,3}\s*(([-x×–—−‐‑‒―﹣:/,;+&]|off)\s*\d{0,3}\s*)+$",
    r#"(?:\A[Ll]?[0-9]{1,3}[\x{09}-\x{0D} ]*((?:((?:[\&\+-\-/:;Xx]|(?:[Oo][Ff][Ff])))[\x{09}-\x{0D} ]*[0-9]{0,3}[\x{09}-\x{0D} ]*))+\z)"#,
);

/// One move along squares, in any form [`crate::notation::parse`] reads
/// once spaces are glued: `22-15`, `22x36x50`, `22-off`, `12-20:2`,
/// `L12-28`.
static PATH_WORD: Twin = Twin::new(
    r"(?i)^(l?\d{1,3}([-x×–—−‐‑‒―﹣]\d{1,3})+(:\d{1,2})?|\d{1,3}[-–—−‐‑‒―﹣]off)$",
    r#"(?:\A((?:(?:[Ll]?[0-9]{1,3}((?:[\-Xx][0-9]{1,3}))+((?::[0-9]{1,2}))?)|(?:[0-9]{1,3}\-[Oo][Ff][Ff])))\z)"#,
);

/// One Guerrilla point, `27/36`: half of a placement.
static POINT_WORD: Twin = Twin::new(r"^\d{1,3}/\d{1,3}$", r#"(?:\A[0-9]{1,3}/[0-9]{1,3}\z)"#);

/// A line shaped `Label: value`, in any language: one to four words,
/// the first starting with a letter, then a colon and a space or the
/// line's end (`Legal moves: 50-26, 50-29`, `From 50: 50-26`, `Your move:
/// 13-21`, `Zug:`, `Coups légaux : ...`; a full-width `：` wants no
/// space). A caption, pbem's quoted back or the player's own, never a
/// command nor an attempt at one. A colon inside a word is none of a
/// label's (M.A.D.'s `12-20:2`, `digest daily 08:00`), nor is one after
/// a first word that is no word (`#12: 22-15`, `12-20: 2`).
static LABEL: Twin = Twin::new(
    r"^\p{L}[^\s:：]*(?:\s+[^\s:：]+){0,3}\s*(?::(?:\s|$)|：)",
    r#"(?:\A[A-Za-z][\x{00}-\x{08}\x{0E}-\x{1F}!-9;-\x{7F}]*(?:[\x{09}-\x{0D} ]+[\x{00}-\x{08}\x{0E}-\x{1F}!-9;-\x{7F}]+){0,3}[\x{09}-\x{0D} ]*(?:(?::(?:[\x{09}-\x{0D} ]|\z))|[^\x{00}-\x{10FFFF}]))"#,
);

/// Whether `s` starts with a label ([`LABEL`]).
pub(super) fn label(s: &str) -> bool {
    read(s, ascii::label, &LABEL)
}

/// Whether `s` is a time of day or a date ([`CLOCK_OR_DATE`]).
pub(super) fn clock_or_date(s: &str) -> bool {
    read(s, ascii::clock_or_date, &CLOCK_OR_DATE)
}

/// Whether `s` looks like a move ([`MOVE_LIKE`]).
pub(super) fn move_like(s: &str) -> bool {
    read(s, ascii::move_like, &MOVE_LIKE)
}

/// Whether the word `s` is one move along squares ([`PATH_WORD`]).
pub(super) fn path_word(s: &str) -> bool {
    read(s, ascii::path_word, &PATH_WORD)
}

/// Whether the word `s` is one Guerrilla point ([`POINT_WORD`]).
pub(super) fn point_word(s: &str) -> bool {
    read(s, ascii::point_word, &POINT_WORD)
}

/// `s` read by hand when it is ASCII, by its pattern otherwise.
fn read(s: &str, by_hand: fn(&[u8]) -> bool, pattern: &Twin) -> bool {
    match s.is_ascii() {
        true => by_hand(s.as_bytes()),
        false => pattern.is_match(s),
    }
}

/// `\s` of ASCII text: tab to carriage return, and the space.
pub(super) fn ascii_space(c: u8) -> bool {
    matches!(c, b'\t'..=b'\r' | b' ')
}

/// The readers of ASCII text: `\d` is `0-9` there, `\s` tab to carriage
/// return and the space, and `(?i)` folds only ASCII letters.
mod ascii {
    /// The end of a run of 1 to `most` digits at `at` (the run ends
    /// there: a longer one is no such run), or `None`.
    fn digits(b: &[u8], at: usize, most: usize) -> Option<usize> {
        let n = b
            .get(at..)
            .unwrap_or_default()
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        (1..=most).contains(&n).then_some(at + n)
    }

    /// `[0-5][0-9]` at `at`.
    fn sixty(b: &[u8], at: usize) -> bool {
        matches!(b.get(at), Some(b'0'..=b'5')) && b.get(at + 1).is_some_and(u8::is_ascii_digit)
    }

    /// `([01]?\d|2[0-3]):[0-5]\d(:[0-5]\d)?` or `\d{1,2}/\d{1,2}/\d{2,4}`,
    /// the whole of `b`.
    pub(super) fn clock_or_date(b: &[u8]) -> bool {
        if let Some(h) = digits(b, 0, 2)
            && (h == 1 || b[0] <= b'1' || (b[0] == b'2' && b[1] <= b'3'))
            && b.get(h) == Some(&b':')
            && sixty(b, h + 1)
        {
            let end = h + 3;
            if end == b.len() || (b[end] == b':' && sixty(b, end + 1) && end + 3 == b.len()) {
                return true;
            }
        }
        let date = || {
            let day = digits(b, 0, 2)?;
            let month = digits(b, day + 1, 2).filter(|_| b.get(day) == Some(&b'/'))?;
            let year = digits(b, month + 1, 4).filter(|_| b.get(month) == Some(&b'/'))?;
            ((2..=4).contains(&(year - month - 1)) && year == b.len()).then_some(())
        };
        date().is_some()
    }

    /// `l?\d{1,3}\s*(([-x:/,;+&]|off)\s*\d{0,3}\s*)+`, the whole of `b`,
    /// any case: after the first digits, marks (or `off`), each followed
    /// by at most one run of up to three digits, spaces anywhere between.
    pub(super) fn move_like(b: &[u8]) -> bool {
        let lunge = usize::from(matches!(b.first(), Some(b'l' | b'L')));
        let Some(mut i) = digits(b, lunge, 3) else {
            return false;
        };
        let (mut marks, mut digits_may_come) = (0, false);
        loop {
            while b.get(i).is_some_and(|c| super::ascii_space(*c)) {
                i += 1;
            }
            match b.get(i) {
                None => return marks > 0,
                Some(b'-' | b'x' | b'X' | b':' | b'/' | b',' | b';' | b'+' | b'&') => i += 1,
                Some(b'o' | b'O')
                    if b[i..].len() >= 3 && b[i..i + 3].eq_ignore_ascii_case(b"off") =>
                {
                    i += 3
                }
                Some(c) if c.is_ascii_digit() && digits_may_come => {
                    let Some(end) = digits(b, i, 3) else {
                        return false;
                    };
                    (i, digits_may_come) = (end, false);
                    continue;
                }
                Some(_) => return false,
            }
            (marks, digits_may_come) = (marks + 1, true);
        }
    }

    /// `l?\d{1,3}([-x]\d{1,3})+(:\d{1,2})?` or `\d{1,3}-off`, the whole
    /// of `b`, any case.
    pub(super) fn path_word(b: &[u8]) -> bool {
        if let Some(i) = digits(b, 0, 3)
            && b.get(i) == Some(&b'-')
            && b[i + 1..].eq_ignore_ascii_case(b"off")
        {
            return true;
        }
        let lunge = usize::from(matches!(b.first(), Some(b'l' | b'L')));
        let Some(mut i) = digits(b, lunge, 3) else {
            return false;
        };
        let mut steps = 0;
        while matches!(b.get(i), Some(b'-' | b'x' | b'X')) {
            let Some(end) = digits(b, i + 1, 3) else {
                return false;
            };
            (i, steps) = (end, steps + 1);
        }
        if b.get(i) == Some(&b':') {
            let Some(end) = digits(b, i + 1, 2) else {
                return false;
            };
            i = end;
        }
        steps > 0 && i == b.len()
    }

    /// `[A-Za-z][^\s:]*(\s+[^\s:]+){0,3}\s*:(\s|$)` at the start of
    /// `b`: no word can hold a colon, so the first colon ends the label,
    /// which is one to four words from a letter on.
    pub(super) fn label(b: &[u8]) -> bool {
        let Some(colon) = b.iter().position(|&c| c == b':') else {
            return false;
        };
        let head = &b[..colon];
        head.first().is_some_and(u8::is_ascii_alphabetic)
            && b.get(colon + 1).is_none_or(|&c| super::ascii_space(c))
            && head
                .split(|&c| super::ascii_space(c))
                .filter(|w| !w.is_empty())
                .count()
                <= 4
    }

    /// `\d{1,3}/\d{1,3}`, the whole of `b`.
    pub(super) fn point_word(b: &[u8]) -> bool {
        digits(b, 0, 3)
            .filter(|&i| b.get(i) == Some(&b'/'))
            .and_then(|i| digits(b, i + 1, 3))
            == Some(b.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::random_lines::random_lines;

    /// Each reader takes what its pattern takes, over random ASCII lines
    /// of the pieces the patterns speak of, and over lines picked by hand.
    #[test]
    fn each_reader_by_hand_takes_what_its_pattern_takes() {
        let pieces = [
            "1", "2", "0", "3", "5", "6", "9", "12", "23", "24", "59", "60", "123", "1234", "-",
            "x", "X", ":", "/", ",", ";", "+", "&", " ", "\t", "off", "OFF", "oF", "o", "f", "l",
            "L", "a", ".", "\n", "\r", "#", "Zug", "b", "\x0b", "\x1c",
        ];
        let mut lines = random_lines(&pieces, 40_000, 9, 0x5851_f42d_4c95_7f2d);
        lines.extend(
            [
                "",
                "12:33",
                "9:05",
                "09:05:59",
                "23:59",
                "24:00",
                "19:60",
                "1:3",
                "123:00",
                "20/11/26",
                "1/2/2026",
                "1/2/20266",
                "1/2/2",
                "22-15",
                "22x36x50",
                "22-off",
                "22 - OFF",
                "12-20:2",
                "12-20:123",
                "L12-28",
                "l12-off",
                "27/36",
                "27/36,28/37",
                "27/36, 28/37",
                "1234-5",
                "12 34",
                "12 ",
                "12-",
                "12 -",
                "12-x5",
                "off",
                "12off",
                "12 off 3 off",
                "1-2 3",
                "1-234-5",
                "12-1234",
                "Legal moves: 50-26, 50-29",
                "From 50: 50-26",
                "Your move:",
                "a b c d: e",
                "a b c d e: f",
                "Zug:x",
                "Zug :",
                " Zug: 1",
                "#12: 22-15",
                "digest daily 08:00",
                "Zug:\t",
            ]
            .map(String::from),
        );
        for line in &lines {
            let b = line.as_bytes();
            for (name, twin, by_hand) in [
                (
                    "clock or date",
                    &CLOCK_OR_DATE,
                    ascii::clock_or_date as fn(&[u8]) -> bool,
                ),
                ("move-like", &MOVE_LIKE, ascii::move_like),
                ("path word", &PATH_WORD, ascii::path_word),
                ("point word", &POINT_WORD, ascii::point_word),
                ("label", &LABEL, ascii::label),
            ] {
                assert_eq!(
                    by_hand(b),
                    twin.is_match(line),
                    "{name}: {line:?} ({})",
                    twin.pattern()
                );
            }
        }
        // Some of each kind were taken.
        for by_hand in [
            ascii::clock_or_date as fn(&[u8]) -> bool,
            ascii::move_like,
            ascii::path_word,
            ascii::point_word,
            ascii::label,
        ] {
            assert!(lines.iter().filter(|l| by_hand(l.as_bytes())).count() > 5);
        }
    }

    /// Text that is not ASCII goes to the patterns: `\d` takes any
    /// script's digits there, and the dashes a move may be written with.
    #[test]
    fn text_that_is_not_ascii_goes_to_the_patterns() {
        assert!(path_word("22–15") && move_like("22 — 15") && !path_word("22–x"));
        assert!(point_word("٢٧/٣٦") && clock_or_date("١:05") && !clock_or_date("١٢:٣٣"));
        assert!(!move_like("22–15 please"));
        assert!(label("Coups légaux : 22-15") && label("手番：22-15") && !label("12–20: 2"));
    }
}
