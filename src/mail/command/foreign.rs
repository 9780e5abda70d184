//! A move written in another game's notation: chess squares (`e2-e4`,
//! `e2 to e4`) or square numbers joined by a word or an arrow (`50 to
//! 42`, `50->42`). Reading one is syntax only; which square numbers the
//! squares are, and whether the move is legal, is for the adjudicator,
//! which knows the game ([`ForeignMove::written`]).

use crate::mail::twin::Twin;
use pbem_engine::geom::Geometry;

/// One square as the player wrote it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForeignSquare {
    /// `e2`: a file `a`-`j` (0-based column) and a rank (from 1, counted
    /// from the bottom row, as chess counts).
    Chess { file: u8, rank: u8 },
    /// `50`: a square number, pbem's own.
    Number(u32),
}

/// A move from one square to another in another game's notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ForeignMove {
    pub from: ForeignSquare,
    pub to: ForeignSquare,
}

/// Chess squares joined as chess players join them: a dash (any), `x`,
/// `to`, or a space. The whole line, so prose that mentions squares
/// (`I like e4 better than d4`) is no move.
static CHESS_PAIR: Twin = Twin::new(
    r"(?i)^([a-j])(10|[1-9])\s*(?:[-x×–—−‐‑‒―﹣:]|\s+to\s+|\s)\s*([a-j])(10|[1-9])$",
    r#"(?:\A([A-Ja-j])((?:(?:10)|[1-9]))[\x{09}-\x{0D} ]*(?:[\-:Xx]|(?:[\x{09}-\x{0D} ]+[Tt][Oo][\x{09}-\x{0D} ]+)|[\x{09}-\x{0D} ])[\x{09}-\x{0D} ]*([A-Ja-j])((?:(?:10)|[1-9]))\z)"#,
);

/// Square numbers joined by a word or an arrow, forms no game's notation
/// has (dashes are read as moves already).
static NUMBER_PAIR: Twin = Twin::new(
    r"(?i)^(\d{1,3})\s*(?:\s+to\s+|->|-->|=>|→|⇒|>)\s*(\d{1,3})$",
    r#"(?:\A([0-9]{1,3})[\x{09}-\x{0D} ]*(?:(?:[\x{09}-\x{0D} ]+[Tt][Oo][\x{09}-\x{0D} ]+)|(?:\->)|(?:\-\->)|(?:=>)|[^\x{00}-\x{10FFFF}]|[^\x{00}-\x{10FFFF}]|>)[\x{09}-\x{0D} ]*([0-9]{1,3})\z)"#,
);

/// A leading `move`, `play` or `#12`: the move after it is read alike.
static LEAD: Twin = Twin::new(
    r"(?i)^(?:#\d{1,4}\s+)?(?:(?:move|play)\s+)?(.*)$",
    r#"(?:\A(?:\#[0-9]{1,4}[\x{09}-\x{0D} ]+)?(?:(?:(?:[Mm][Oo][Vv][Ee])|(?:[Pp][Ll][Aa][Yy]))[\x{09}-\x{0D} ]+)?([\x{00}-\x{09}\x{0B}-\x{7F}]*)\z)"#,
);

/// The move `line` holds when it is nothing but a move in another game's
/// notation.
pub fn read(line: &str) -> Option<ForeignMove> {
    if !super::holds_digit(line) {
        return None;
    }
    let line = line.trim();
    let rest = lead(line)?.trim();
    if rest.is_ascii() {
        return ascii::read(rest.as_bytes());
    }
    if may_be_chess(rest)
        && let Some(c) = CHESS_PAIR.captures(rest)
    {
        let square = |f: usize, r: usize| {
            let file = c.get(f).copied().flatten()?.to_ascii_lowercase().as_bytes()[0] - b'a';
            let rank = c.get(r).copied().flatten()?.parse().ok()?;
            Some(ForeignSquare::Chess { file, rank })
        };
        return Some(ForeignMove {
            from: square(1, 2)?,
            to: square(3, 4)?,
        });
    }
    if !may_be_numbers(rest) {
        return None;
    }
    let c = NUMBER_PAIR.captures(rest)?;
    let number = |i: usize| {
        Some(ForeignSquare::Number(
            c.get(i).copied().flatten()?.parse().ok()?,
        ))
    };
    Some(ForeignMove {
        from: number(1)?,
        to: number(2)?,
    })
}

/// `line` after a leading `#12`, `move` or `play` ([`LEAD`]): read by
/// hand in ASCII text, the commonest, where the regex would run over
/// every line of a mail that holds a digit.
fn lead(line: &str) -> Option<&str> {
    if !line.is_ascii() {
        return LEAD.captures(line)?.get(1).copied().flatten();
    }
    let spaces = |s: &str| {
        s.bytes()
            .take_while(|b| super::shapes::ascii_space(*b))
            .count()
    };
    let mut rest = line;
    if let Some(after) = rest.strip_prefix('#') {
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let gap = spaces(&after[digits..]);
        if (1..=4).contains(&digits) && gap > 0 {
            rest = &after[digits + gap..];
        }
    }
    for word in ["move", "play"] {
        if rest.len() > 4 && rest[..4].eq_ignore_ascii_case(word) {
            let gap = spaces(&rest[4..]);
            if gap > 0 {
                rest = &rest[4 + gap..];
                break;
            }
        }
    }
    // `(.*)$`: the rest, unless it holds a line break.
    (!rest.contains('\n')).then_some(rest)
}

/// What every line [`CHESS_PAIR`] matches has: a first letter from `a` to
/// `j` (no other letter folds to one of them). A line without it compiles
/// no regex: most lines a reply holds, or pbem's own mail, have none.
fn may_be_chess(rest: &str) -> bool {
    rest.starts_with(|c: char| matches!(c.to_ascii_lowercase(), 'a'..='j'))
}

/// What every line [`NUMBER_PAIR`] matches has: a `>`, an arrow, or the
/// `t` of `to` (no other letter folds to `t`).
fn may_be_numbers(rest: &str) -> bool {
    rest.contains(['>', '→', '⇒', 't', 'T'])
}

/// [`CHESS_PAIR`] and [`NUMBER_PAIR`] read by hand in ASCII text, the
/// commonest: a line of pbem's own that holds a digit (a reply's lines
/// are all checked for reading as a command) would otherwise compile the
/// two patterns and run them. The tests hold each against its pattern
/// over random lines.
mod ascii {
    use super::{ForeignMove, ForeignSquare};
    use crate::mail::command::shapes::ascii_space;

    /// The move `b` (a trimmed line after its lead) is, chess squares
    /// first, as [`super::read`] tries the patterns.
    pub(super) fn read(b: &[u8]) -> Option<ForeignMove> {
        if let Some(((f1, r1), (f2, r2))) = chess_pair(b) {
            let square = |file: u8, rank| ForeignSquare::Chess {
                file: file.to_ascii_lowercase() - b'a',
                rank,
            };
            return Some(ForeignMove {
                from: square(f1, r1),
                to: square(f2, r2),
            });
        }
        let (from, to) = number_pair(b)?;
        Some(ForeignMove {
            from: ForeignSquare::Number(from),
            to: ForeignSquare::Number(to),
        })
    }

    /// `b` without the `\s` at either end.
    fn trim(b: &[u8]) -> &[u8] {
        let start = b.iter().take_while(|c| ascii_space(**c)).count();
        let end = b.len()
            - b[start..]
                .iter()
                .rev()
                .take_while(|c| ascii_space(**c))
                .count();
        &b[start..end]
    }

    /// `\s+to\s+` (any case), the whole of `gap`.
    fn worded(gap: &[u8]) -> bool {
        trim(gap).eq_ignore_ascii_case(b"to")
            && gap.first().is_some_and(|c| ascii_space(*c))
            && gap.last().is_some_and(|c| ascii_space(*c))
    }

    /// `([a-j])(10|[1-9])\s*(?:[-:x]|\s+to\s+|\s)\s*([a-j])(10|[1-9])`,
    /// any case, the whole of `b`: each square's file (as written) and
    /// rank. A rank is `10` where it can be (a `1` then a `0` is no
    /// rank and a gap), so each square is found from its end of the line,
    /// and what lies between them is the gap.
    pub(super) fn chess_pair(b: &[u8]) -> Option<((u8, u8), (u8, u8))> {
        let file = |c: &&u8| matches!(c.to_ascii_lowercase(), b'a'..=b'j');
        let f1 = *b.first().filter(file)?;
        let (r1, gap_from) = match b.get(1..3) {
            Some(b"10") => (10, 3),
            _ => match b.get(1) {
                Some(d @ b'1'..=b'9') => (d - b'0', 2),
                _ => return None,
            },
        };
        let n = b.len();
        let (r2, at) = if b.ends_with(b"10") {
            (10, n.checked_sub(3)?)
        } else {
            match b.last() {
                Some(d @ b'1'..=b'9') => (d - b'0', n.checked_sub(2)?),
                _ => return None,
            }
        };
        let f2 = *b.get(at).filter(file)?;
        let gap = b.get(gap_from..at)?;
        let (mark, spaced) = (trim(gap), !gap.is_empty());
        let joined = matches!(mark, b"-" | b":" | b"x" | b"X") || (spaced && mark.is_empty());
        (joined || worded(gap)).then_some(((f1, r1), (f2, r2)))
    }

    /// `([0-9]{1,3})\s*(?:\s+to\s+|->|-->|=>|>)\s*([0-9]{1,3})`, any
    /// case, the whole of `b`: the two numbers. Each is the whole run of
    /// digits at its end of the line (a longer run is none).
    pub(super) fn number_pair(b: &[u8]) -> Option<(u32, u32)> {
        let lead = b.iter().take_while(|c| c.is_ascii_digit()).count();
        let tail = b.iter().rev().take_while(|c| c.is_ascii_digit()).count();
        if !(1..=3).contains(&lead) || !(1..=3).contains(&tail) || lead + tail > b.len() {
            return None;
        }
        let gap = &b[lead..b.len() - tail];
        let arrow = matches!(trim(gap), b"->" | b"-->" | b"=>" | b">");
        let number = |d: &[u8]| d.iter().fold(0, |n, c| n * 10 + u32::from(c - b'0'));
        (arrow || worded(gap)).then(|| (number(&b[..lead]), number(&b[b.len() - tail..])))
    }
}

impl ForeignSquare {
    /// The square's number on a board of `g` (rows counted from the top,
    /// as pbem counts them), if the board has it.
    pub fn number(self, g: Geometry) -> Option<u32> {
        match self {
            ForeignSquare::Number(n) => g.contains_number(n).then_some(n),
            ForeignSquare::Chess { file, rank } => {
                if file >= g.width || rank == 0 || rank > g.height {
                    return None;
                }
                let row = u32::from(g.height - rank);
                Some(row * u32::from(g.width) + u32::from(file) + 1)
            }
        }
    }
}

impl ForeignMove {
    /// The move as pbem writes it on a board of `g` (`53-37` for `e2-e4`
    /// on 8x8), if both squares are on it.
    pub fn written(self, g: Geometry) -> Option<String> {
        Some(format!("{}-{}", self.from.number(g)?, self.to.number(g)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::random_lines::random_lines;

    #[test]
    fn chess_squares_and_worded_pairs_read_as_foreign_moves() {
        let eight = Geometry::EIGHT;
        let ten = Geometry::TEN;
        for (line, on_eight, on_ten) in [
            ("e2-e4", Some("53-37"), Some("85-65")),
            ("E2 to E4", Some("53-37"), Some("85-65")),
            ("move e2 e4", Some("53-37"), Some("85-65")),
            ("#3 a8xh1", Some("1-64"), Some("21-98")),
            ("j10-a1", None, Some("10-91")),
            ("50 to 42", Some("50-42"), Some("50-42")),
            ("50->42", Some("50-42"), Some("50-42")),
            ("90 → 100", None, Some("90-100")),
        ] {
            let f = read(line).unwrap_or_else(|| panic!("{line}"));
            assert_eq!(f.written(eight).as_deref(), on_eight, "{line}");
            assert_eq!(f.written(ten).as_deref(), on_ten, "{line}");
        }
    }

    /// The quick checks turn away no line their regex would take: over
    /// lines of the characters the patterns speak of, ASCII and not.
    #[test]
    fn the_quick_checks_keep_every_line_the_patterns_match() {
        let pieces = [
            "e2", "E4", "a8", "j10", "k1", "x", "-", " to ", "TO", " ", "\t", "h1", "50", "->",
            "=>", ">", "→", "⇒", "–", "ǅ", "ſ", "ｅ", "١", "Ｋ", "0", "e",
        ];
        let mut matched = [0, 0];
        for line in random_lines(&pieces, 20_000, 6, 0x9e37_79b9_7f4a_7c15) {
            if CHESS_PAIR.is_match(&line) {
                matched[0] += 1;
                assert!(may_be_chess(&line), "{line:?}");
            }
            if NUMBER_PAIR.is_match(&line) {
                matched[1] += 1;
                assert!(may_be_numbers(&line), "{line:?}");
            }
        }
        for case in ["e2-e4", "E2 to E4", "a8xh1", "j10 a1"] {
            assert!(may_be_chess(case) && CHESS_PAIR.is_match(case));
        }
        for case in ["50 to 42", "50->42", "90 → 100", "1 ⇒ 2", "3 TO 4"] {
            assert!(may_be_numbers(case) && NUMBER_PAIR.is_match(case));
        }
        assert!(matched.iter().all(|&n| n > 0), "{matched:?}");
    }

    /// The readers by hand take what [`CHESS_PAIR`] and [`NUMBER_PAIR`]
    /// take in ASCII text, with the same squares, over random lines of
    /// the pieces they speak of.
    #[test]
    fn the_pairs_read_by_hand_are_the_patterns() {
        let pieces = [
            "e2", "E4", "a", "j", "J", "k", "x", "X", "-", ":", "to", "TO", "tO", " ", "\t",
            "\x0b", "1", "9", "10", "0", "100", "1234", "50", "->", "-->", "=>", "=", ">", "h1",
            "a10",
        ];
        let mut lines = random_lines(&pieces, 40_000, 6, 0x94d0_49bb_1331_11eb);
        // Every square or number, gap and square or number.
        let ends = [
            "e2", "a10", "J1", "k1", "e0", "e", "50", "1", "100", "1000", "5a", "10",
        ];
        let gaps = [
            "", "-", " to ", "x", " ", ":", "->", " -> ", "=>", ">", " x ", "to", "\t-\t", "--",
            " TO", "-->", " =", "  ",
        ];
        for first in ends {
            for gap in gaps {
                lines.extend(ends.map(|second| format!("{first}{gap}{second}")));
            }
        }
        let mut taken = [0, 0];
        for line in lines {
            let chess = CHESS_PAIR.captures(&line).map(|c| {
                let part = |i: usize| c.get(i).copied().flatten().unwrap().to_string();
                let rank = |i: usize| part(i).parse::<u8>().unwrap();
                (
                    (part(1).as_bytes()[0], rank(2)),
                    (part(3).as_bytes()[0], rank(4)),
                )
            });
            assert_eq!(ascii::chess_pair(line.as_bytes()), chess, "{line:?}");
            let numbers = NUMBER_PAIR.captures(&line).map(|c| {
                let n = |i: usize| c.get(i).copied().flatten().unwrap().parse::<u32>().unwrap();
                (n(1), n(2))
            });
            assert_eq!(ascii::number_pair(line.as_bytes()), numbers, "{line:?}");
            taken[0] += usize::from(chess.is_some());
            taken[1] += usize::from(numbers.is_some());
        }
        assert!(taken.iter().all(|&n| n > 50), "{taken:?}");
    }

    /// [`lead`] reads ASCII lines as [`LEAD`]'s pattern does, over lines
    /// of the pieces it speaks of.
    #[test]
    fn the_lead_read_by_hand_is_the_patterns() {
        let pattern = regex::Regex::new(LEAD.pattern()).unwrap();
        let pieces = [
            "#", "12", "12345", "1", " ", "\t", "\x0b", "\n", "move", "MoVe", "play", "moves", "x",
            "22-15", "e2",
        ];
        for line in random_lines(&pieces, 20_000, 7, 0x2545_f491_4f6c_dd1d) {
            let by_pattern = pattern
                .captures(&line)
                .and_then(|c| c.get(1))
                .map(|m| m.as_str());
            assert_eq!(lead(&line), by_pattern, "{line:?}");
        }
    }

    #[test]
    fn prose_and_pbem_moves_are_not_foreign() {
        for line in [
            "22-15",
            "50 - 42",
            "I played e2-e4 yesterday",
            "from 50 to 42 is a long way",
            "see you at 5",
            "e4",
            "k1-k2",
            "hello there",
        ] {
            assert_eq!(read(line), None, "{line}");
        }
    }
}
