//! A regex with an ASCII twin. A pattern over Unicode classes (`\d`,
//! `\s`, `(?i)`) costs a few hundred microseconds to compile, and a
//! process that reads one mail compiles each it uses: most of the CPU of
//! `pbem deliver`. Most lines a player writes are ASCII, and on ASCII text
//! a pattern matches exactly what its twin does: the same pattern with
//! every class cut to its ASCII members, every non-ASCII literal made
//! unmatchable and every Unicode word boundary made ASCII (on ASCII text,
//! the Unicode `\w` is the ASCII one). The twin compiles several times
//! faster, and lighter still with [`regex_lite`] for its first uses;
//! text that is not ASCII gets the pattern itself.

use regex::Regex;
use regex_syntax::hir::{
    self, Class, ClassBytes, ClassBytesRange, ClassUnicode, ClassUnicodeRange, Hir, HirKind, Look,
};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

/// How many times a twin is used on ASCII text through its light
/// compilation ([`regex_lite`]) before it is compiled in full: the light
/// one compiled 8 times faster for the patterns of the command reader
/// and matched 8 times slower (27 against 207 µs for all of them; 0.23
/// against 0.03 µs a match), so a process that reads one mail never
/// pays for the full one, and a poll of thousands soon does.
const LIGHT_USES: u32 = 64;

/// The longest text the light compilation of a pattern that may match
/// anywhere is used on: its matcher's time grows with the text and the
/// pattern together, and over the lines of a mail it took longer than
/// compiling the full one. A pattern anchored at the start of the text
/// (its twin printed as `(?:\A...`) gives up where the text stops
/// matching, a word or two into a sentence: any length.
const LIGHT_MAX_LEN: usize = 24;

/// A pattern, compiled for the text it is given: its ASCII twin for ASCII
/// text (lightly at first, in full once used often), itself for the rest;
/// each when first needed.
pub struct Twin {
    pattern: &'static str,
    /// [`ascii_twin`] of `pattern`.
    twin: &'static str,
    unicode: OnceLock<Regex>,
    light: OnceLock<Option<regex_lite::Regex>>,
    uses: AtomicU32,
    ascii: OnceLock<Regex>,
    /// The full twin a debug build checks the light one against, apart
    /// from `ascii` so that checking does not end the light uses.
    check: OnceLock<Regex>,
}

/// One of a twin's compilations, for one text.
enum Compiled<'a> {
    Full(&'a Regex),
    Light(&'a regex_lite::Regex),
}

impl Twin {
    /// `pattern`, and `twin`: [`ascii_twin`] of it (the message of a
    /// debug build's check shows it when it differs).
    pub const fn new(pattern: &'static str, twin: &'static str) -> Twin {
        Twin {
            pattern,
            twin,
            unicode: OnceLock::new(),
            light: OnceLock::new(),
            uses: AtomicU32::new(0),
            ascii: OnceLock::new(),
            check: OnceLock::new(),
        }
    }

    /// The compilation for `text`: use it on `text` only.
    fn on(&self, text: &str) -> Compiled<'_> {
        if !text.is_ascii() {
            return Compiled::Full(self.unicode());
        }
        if let Some(full) = self.ascii.get() {
            return Compiled::Full(full);
        }
        if (text.len() <= LIGHT_MAX_LEN || self.twin.starts_with(r"(?:\A"))
            && self.uses.fetch_add(1, Ordering::Relaxed) < LIGHT_USES
            && let Some(light) = self
                .light
                .get_or_init(|| regex_lite::Regex::new(self.twin).ok())
        {
            return Compiled::Light(light);
        }
        Compiled::Full(self.ascii())
    }

    /// The pattern, as written.
    pub fn pattern(&self) -> &'static str {
        self.pattern
    }

    /// The ASCII twin, compiled in full.
    fn ascii(&self) -> &Regex {
        self.ascii.get_or_init(|| {
            debug_assert_eq!(
                ascii_twin(self.pattern).as_deref(),
                Some(self.twin),
                "the ASCII twin written for {:?} is not the one derived",
                self.pattern
            );
            Regex::new(self.twin).unwrap_or_else(|_| self.unicode().clone())
        })
    }

    /// The ASCII twin compiled in full, for a debug build's checks.
    fn check(&self) -> &Regex {
        self.check
            .get_or_init(|| Regex::new(self.twin).expect("valid twin"))
    }

    /// The pattern itself, compiled.
    fn unicode(&self) -> &Regex {
        self.unicode
            .get_or_init(|| Regex::new(self.pattern).expect("valid regex"))
    }

    pub fn is_match(&self, text: &str) -> bool {
        match self.on(text) {
            Compiled::Full(r) => r.is_match(text),
            Compiled::Light(r) => {
                let found = r.is_match(text);
                debug_assert_eq!(found, self.check().is_match(text), "{text:?}");
                found
            }
        }
    }

    /// What each group of the first match in `text` holds (the whole
    /// match first), if there is one.
    pub fn captures<'t>(&self, text: &'t str) -> Option<Vec<Option<&'t str>>> {
        match self.on(text) {
            Compiled::Full(r) => groups_of(r, text),
            Compiled::Light(r) => {
                let groups: Option<Vec<_>> = r
                    .captures(text)
                    .map(|c| c.iter().map(|m| m.map(|m| m.as_str())).collect());
                debug_assert_eq!(groups, groups_of(self.check(), text), "{text:?}");
                groups
            }
        }
    }
}

/// What each group of `r`'s first match in `text` holds.
fn groups_of<'t>(r: &Regex, text: &'t str) -> Option<Vec<Option<&'t str>>> {
    r.captures(text)
        .map(|c| c.iter().map(|m| m.map(|m| m.as_str())).collect())
}

/// `pattern`'s ASCII twin, as a pattern; `None` if it does not parse.
fn ascii_twin(pattern: &str) -> Option<String> {
    let hir = regex_syntax::parse(pattern).ok()?;
    // Printable: the twins are written out in the source. What cannot
    // match prints as an intersection, `[a&&b]`, which `regex_lite` does
    // not read: the empty class it is, written as one class.
    let printed = ascii(&hir)
        .to_string()
        .replace("[a&&b]", r"[^\x{00}-\x{10FFFF}]");
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
        let alphabet: Vec<String> = "0123456789-x:/ #lLoOfFmMvVeEpPkK*_\trwtsbc"
            .chars()
            .map(String::from)
            .collect();
        let pieces: Vec<&str> = alphabet.iter().map(String::as_str).collect();
        lines.extend(crate::mail::random_lines::random_lines(
            &pieces,
            3000,
            14,
            0x2545_f491_4f6c_dd1d,
        ));
        for p in patterns {
            let twin = Twin::new(p, ascii_twin(p).unwrap().leak());
            let (unicode, ascii) = (twin.unicode(), twin.ascii());
            assert_ne!(ascii.as_str(), unicode.as_str(), "{p}: no twin");
            let light = regex_lite::Regex::new(twin.twin).expect("the twin compiles lightly");
            for line in &lines {
                let a: Vec<_> = ascii.captures_iter(line).map(|c| groups(&c)).collect();
                let u: Vec<_> = unicode.captures_iter(line).map(|c| groups(&c)).collect();
                assert_eq!(a, u, "{p} on {line:?} (twin {})", ascii.as_str());
                let l: Vec<_> = light
                    .captures_iter(line)
                    .map(|c| {
                        c.iter()
                            .map(|m| m.map(|m| (m.start(), m.end())))
                            .collect::<Vec<_>>()
                    })
                    .collect();
                assert_eq!(l, a, "{p} on {line:?}, compiled lightly");
            }
            // Not ASCII: the pattern itself.
            assert!(matches!(twin.on("２２–15"), Compiled::Full(r) if r.as_str() == p));
        }
    }

    /// A twin is compiled lightly for its first uses on ASCII text, in
    /// full after [`LIGHT_USES`], and finds the same either way.
    #[test]
    fn a_twin_is_compiled_in_full_once_used_often() {
        let p = r"(?i)^(l?\d{1,3}([-x×–—−‐‑‒―﹣]\d{1,3})+(:\d{1,2})?|\d{1,3}[-–—−‐‑‒―﹣]off)$";
        let twin = Twin::new(p, ascii_twin(p).unwrap().leak());
        let mut found = Vec::new();
        for i in 0..2 * LIGHT_USES {
            // Each use of the two below counts: two a turn.
            let light = matches!(twin.on("22-15"), Compiled::Light(_));
            assert_eq!(light, 2 * i < LIGHT_USES, "use {}", 2 * i);
            found.push(
                twin.captures("L22x15:2")
                    .map(|g| g.into_iter().flatten().collect::<Vec<_>>()),
            );
        }
        let groups = Some(vec!["L22x15:2", "L22x15:2", "x15", ":2"]);
        assert!(found.iter().all(|g| *g == groups), "{found:?}");
        // Light on a long text only when anchored at its start.
        let long = "a sentence of prose, longer than a move or a word";
        let anywhere = r"(?i)\s*([-x×:/])\s*";
        let anywhere = Twin::new(anywhere, ascii_twin(anywhere).unwrap().leak());
        assert!(matches!(anywhere.on("kw"), Compiled::Light(_)));
        assert!(matches!(anywhere.on(long), Compiled::Full(_)));
        // Compiled in full, it is used from then on.
        assert!(matches!(anywhere.on("kw"), Compiled::Full(_)));
        let anchored = Twin::new(p, ascii_twin(p).unwrap().leak());
        assert!(matches!(anchored.on(long), Compiled::Light(_)));
    }

    fn groups(c: &regex::Captures<'_>) -> Vec<Option<(usize, usize)>> {
        c.iter().map(|m| m.map(|m| (m.start(), m.end()))).collect()
    }
}
