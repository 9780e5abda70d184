//! A regex with an ASCII twin. A pattern over Unicode classes (`\d`,
//! `\s`, `(?i)`) costs a few hundred microseconds to compile, and a
//! process that reads one mail compiles each it uses: most of the CPU of
//! `pbem deliver`. Most lines a player writes are ASCII, and on ASCII text
//! a pattern matches exactly what its twin does: the same pattern with
//! every class cut to its ASCII members, every non-ASCII literal made
//! unmatchable and every Unicode word boundary made ASCII (on ASCII text,
//! the Unicode `\w` is the ASCII one). The twin compiles several times
//! faster; text that is not ASCII gets the pattern itself.

use regex::Regex;
use regex_syntax::hir::{
    self, Class, ClassBytes, ClassBytesRange, ClassUnicode, ClassUnicodeRange, Hir, HirKind, Look,
};
use std::sync::OnceLock;

/// A pattern, compiled for the text it is given: its ASCII twin for ASCII
/// text, itself for the rest; each when first needed.
pub struct Twin {
    pattern: &'static str,
    /// [`ascii_twin`] of `pattern`.
    twin: &'static str,
    unicode: OnceLock<Regex>,
    ascii: OnceLock<Regex>,
}

impl Twin {
    /// `pattern`, and `twin`: [`ascii_twin`] of it (the message of a
    /// debug build's check shows it when it differs).
    pub const fn new(pattern: &'static str, twin: &'static str) -> Twin {
        Twin {
            pattern,
            twin,
            unicode: OnceLock::new(),
            ascii: OnceLock::new(),
        }
    }

    /// The regex for `text`: use it on `text` only.
    pub fn on(&self, text: &str) -> &Regex {
        if text.is_ascii() {
            self.ascii.get_or_init(|| {
                debug_assert_eq!(
                    ascii_twin(self.pattern).as_deref(),
                    Some(self.twin),
                    "the ASCII twin written for {:?} is not the one derived",
                    self.pattern
                );
                Regex::new(self.twin).unwrap_or_else(|_| self.unicode().clone())
            })
        } else {
            self.unicode()
        }
    }

    /// The pattern itself, compiled.
    pub fn unicode(&self) -> &Regex {
        self.unicode
            .get_or_init(|| Regex::new(self.pattern).expect("valid regex"))
    }

    pub fn is_match(&self, text: &str) -> bool {
        self.on(text).is_match(text)
    }
}

/// `pattern`'s ASCII twin, as a pattern; `None` if it does not parse.
fn ascii_twin(pattern: &str) -> Option<String> {
    let hir = regex_syntax::parse(pattern).ok()?;
    // Printable: the twins are written out in the source.
    let printed = ascii(&hir).to_string();
    Some(printed.chars().fold(String::new(), |mut out, c| {
        if c.is_ascii_control() {
            out.push_str(&format!("\\x{{{:02X}}}", u32::from(c)));
        } else {
            out.push(c);
        }
        out
    }))
}

/// `h` cut to what can match ASCII text.
fn ascii(h: &Hir) -> Hir {
    match h.kind() {
        HirKind::Empty => Hir::empty(),
        HirKind::Literal(l) if l.0.is_ascii() => Hir::literal(l.0.clone()),
        HirKind::Literal(_) => Hir::fail(),
        HirKind::Class(Class::Unicode(c)) => {
            let mut c = c.clone();
            c.intersect(&ClassUnicode::new([ClassUnicodeRange::new('\0', '\x7f')]));
            Hir::class(Class::Unicode(c))
        }
        HirKind::Class(Class::Bytes(c)) => {
            let mut c = c.clone();
            c.intersect(&ClassBytes::new([ClassBytesRange::new(0, 0x7f)]));
            Hir::class(Class::Bytes(c))
        }
        HirKind::Look(l) => Hir::look(ascii_look(*l)),
        HirKind::Repetition(r) => Hir::repetition(hir::Repetition {
            sub: Box::new(ascii(&r.sub)),
            ..r.clone()
        }),
        HirKind::Capture(c) => Hir::capture(hir::Capture {
            sub: Box::new(ascii(&c.sub)),
            ..c.clone()
        }),
        HirKind::Concat(v) => Hir::concat(v.iter().map(ascii).collect()),
        HirKind::Alternation(v) => Hir::alternation(v.iter().map(ascii).collect()),
    }
}

fn ascii_look(l: Look) -> Look {
    match l {
        Look::WordUnicode => Look::WordAscii,
        Look::WordUnicodeNegate => Look::WordAsciiNegate,
        Look::WordStartUnicode => Look::WordStartAscii,
        Look::WordEndUnicode => Look::WordEndAscii,
        Look::WordStartHalfUnicode => Look::WordStartHalfAscii,
        Look::WordEndHalfUnicode => Look::WordEndHalfAscii,
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Twins agree with their patterns on ASCII text: whether they
    /// match, where, and what each group holds, over the lines of moves,
    /// commands, clocks and prose that the command reader sees, and over
    /// many random lines of the characters those patterns speak of.
    #[test]
    fn a_twin_finds_what_its_pattern_finds_in_ascii_text() {
        let patterns = [
            r"(?i)\s*([-x×–—−‐‑‒―﹣:/])\s*",
            r"(?i)^(l?\d{1,3}([-x×–—−‐‑‒―﹣]\d{1,3})+(:\d{1,2})?|\d{1,3}[-–—−‐‑‒―﹣]off)$",
            r"^(([01]?\d|2[0-3]):[0-5]\d(:[0-5]\d)?|\d{1,2}/\d{1,2}/\d{2,4})$",
            r"(?i)^(?:#\d{1,4}\s+)?(?:(?:move|play)\s+)?(.*)$",
            r"(?i)^-{2,}\s*.*\b(?:wrote|schrieb|a écrit|skrev)\b.*-{2,}$",
            r"(?i)^[*_]*\s*(?:from|von|de|kimden)\s*[*_]*\s*[:：]",
            r"(?i)\bk\w+\b",
        ];
        let mut lines: Vec<String> = [
            "22-15",
            "22 - 15",
            "12x19x26",
            "l12-28",
            "12-off",
            "07:30",
            "7/12/2026",
            "move 12-16",
            "#4 play 9-13",
            "From: a",
            "**Von:** b",
            "---- On x wrote ----",
            "Kelvin knows",
            "skrev",
            "",
            " ",
            "x",
            "-- ",
            "ab\tcd",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let alphabet: Vec<char> = "0123456789-x:/ #lLoOfFmMvVeEpPkK*_\trwtsbc"
            .chars()
            .collect();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..3000 {
            let mut s = String::new();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            for i in 0..(seed % 14) {
                let pick = (seed >> (i * 4 % 60)) as usize % alphabet.len();
                s.push(alphabet[pick]);
            }
            lines.push(s);
        }
        for p in patterns {
            let twin = Twin::new(p, ascii_twin(p).unwrap().leak());
            let unicode = twin.unicode();
            for line in &lines {
                let ascii = twin.on(line);
                assert_ne!(ascii.as_str(), unicode.as_str(), "{p}: no twin");
                let a: Vec<_> = ascii.captures_iter(line).map(|c| groups(&c)).collect();
                let u: Vec<_> = unicode.captures_iter(line).map(|c| groups(&c)).collect();
                assert_eq!(a, u, "{p} on {line:?} (twin {})", ascii.as_str());
            }
            // Not ASCII: the pattern itself.
            assert_eq!(twin.on("２２–15").as_str(), p);
        }
    }

    fn groups(c: &regex::Captures<'_>) -> Vec<Option<(usize, usize)>> {
        c.iter().map(|m| m.map(|m| (m.start(), m.end()))).collect()
    }
}
