//! The gate of a set of rows of the quote table: the literals every
//! match of its rows begins or ends with. They are found from the rows'
//! patterns (regex-syntax's literal extraction) by the test below, which
//! writes them to `gates.rs`: a process that reads one mail pays neither
//! for the extraction nor for compiling a set whose gate its lines never
//! pass.

use super::Kind;
use super::gates::GATES;

/// The literals that begin or end every match of a set's rows: a line
/// matches a row only if it begins with one of `starts` or ends with one
/// of `ends`, compared ignoring case ([`same_letter`]).
pub(super) struct Gate {
    pub(super) starts: &'static [&'static str],
    pub(super) ends: &'static [&'static str],
}

impl Gate {
    /// The gate of the rows of `kind`; `None` when a match of one of them
    /// may begin and end with anything.
    pub(super) fn of(kind: Kind) -> Option<Gate> {
        GATES
            .iter()
            .find(|(k, _, _)| *k == kind)
            .map(|&(_, starts, ends)| Gate { starts, ends })
    }

    /// Whether `line` may match a row of the gate's set.
    pub(super) fn may_match(&self, line: &str) -> bool {
        let begins = |lit: &&str| {
            let mut chars = line.chars();
            lit.chars()
                .all(|l| chars.next().is_some_and(|c| same_letter(c, l)))
        };
        let finishes = |lit: &&str| {
            let mut chars = line.chars().rev();
            lit.chars()
                .rev()
                .all(|l| chars.next().is_some_and(|c| same_letter(c, l)))
        };
        self.starts.iter().any(begins) || self.ends.iter().any(finishes)
    }
}

/// The ASCII letters (in lower case) that a character outside ASCII
/// has as its one lower- or upper-case character: `k` (the Kelvin sign),
/// `s` (`ſ`), `i` (`ı`). A test finds them all from the case tables.
const ASCII_CASED: [char; 3] = ['i', 'k', 's'];

/// Whether `c` may match `l` in a pattern that ignores case: the same
/// letter, or the same in lower or in upper case (`K` and the Kelvin sign,
/// `ſ` and `s`, `ς` and `σ`). True of every pair a regex's `(?i)` matches
/// (its simple case folding), and perhaps of a few more: a gate may let
/// a line through that the row then refuses, never the other way round.
pub(super) fn same_letter(c: char, l: char) -> bool {
    // Without the case tables where the answer is known (a gate looks at
    // the first and last letters of every line of a mail): two ASCII
    // characters by their ASCII case; an ASCII one and another only
    // match where the other has an ASCII case ([`ASCII_CASED`]).
    match (c.is_ascii(), l.is_ascii()) {
        (true, true) => return c.eq_ignore_ascii_case(&l),
        (true, false) if !ASCII_CASED.contains(&c.to_ascii_lowercase()) => return false,
        (false, true) if !ASCII_CASED.contains(&l.to_ascii_lowercase()) => return false,
        _ => {}
    }
    c == l || c.to_lowercase().eq(l.to_lowercase()) || c.to_uppercase().eq(l.to_uppercase())
}

#[cfg(test)]
mod tests {
    use super::super::{Kind, TABLE};
    use std::collections::BTreeSet;

    /// Two ASCII characters match as the case tables say, every pair.
    #[test]
    fn ascii_letters_match_as_the_case_tables_say() {
        let tables = |c: char, l: char| {
            c == l || c.to_lowercase().eq(l.to_lowercase()) || c.to_uppercase().eq(l.to_uppercase())
        };
        for c in (0u8..128).map(char::from) {
            for l in (0u8..128).map(char::from) {
                assert_eq!(super::same_letter(c, l), tables(c, l), "{c:?} {l:?}");
            }
        }
        // And a pair of one ASCII letter and one that is not.
        assert!(super::same_letter('\u{212a}', 'k') && super::same_letter('s', '\u{17f}'));
        assert!(super::same_letter('\u{131}', 'I') && !super::same_letter('\u{e9}', 'e'));
    }

    /// Every character outside ASCII whose lower or upper case is one
    /// ASCII character has one of [`super::ASCII_CASED`]: the only ASCII
    /// letters such a character can match.
    #[test]
    fn only_the_ascii_cased_letters_have_partners_outside_ascii() {
        let one_ascii = |mut it: std::iter::Peekable<std::vec::IntoIter<char>>| {
            let c = it.next()?;
            (it.peek().is_none() && c.is_ascii()).then(|| c.to_ascii_lowercase())
        };
        let found: BTreeSet<char> = (0x80..=0x10ffff_u32)
            .filter_map(char::from_u32)
            .flat_map(|n| {
                let lower = one_ascii(n.to_lowercase().collect::<Vec<_>>().into_iter().peekable());
                let upper = one_ascii(n.to_uppercase().collect::<Vec<_>>().into_iter().peekable());
                [lower, upper]
            })
            .flatten()
            .collect();
        assert_eq!(found, super::ASCII_CASED.into_iter().collect(), "{found:?}");
    }

    /// The longest literal kept, in bytes: enough to tell `sent from`
    /// from a sentence, short enough for few literals.
    const LONGEST: usize = 8;

    /// `gates.rs` holds what the table's patterns give: each kind whose
    /// every row has a gate, with the literals. After a change to the
    /// table, `PBEM_REGENERATE=1 cargo test --lib gates_file` writes it.
    #[test]
    fn the_gates_file_is_what_the_table_derives() {
        let mut out = String::from(
            "//! Made from the quote table's patterns by the test \
             `the_gates_file_is_what_the_table_derives`\n\
             //! (src/mail/quotes/gate.rs): do not edit; \
             `PBEM_REGENERATE=1 cargo test --lib gates_file` writes it.\n\n\
             use super::Kind;\n\n\
             /// Per kind: the literals every match begins with, and those it ends with.\n\
             #[rustfmt::skip]\n\
             pub(super) const GATES: &[(Kind, &[&str], &[&str])] = &[\n",
        );
        for kind in [Kind::Separator, Kind::Signature] {
            if let Some((starts, ends)) = derive(kind) {
                let (starts, ends): (Vec<_>, Vec<_>) =
                    (starts.into_iter().collect(), ends.into_iter().collect());
                out.push_str(&format!("    (Kind::{kind:?}, &{starts:?}, &{ends:?}),\n"));
            }
        }
        out.push_str("];\n");
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/mail/quotes/gates.rs");
        if std::env::var_os("PBEM_REGENERATE").is_some() {
            std::fs::write(path, &out).unwrap();
        }
        let file = std::fs::read_to_string(path).unwrap();
        assert!(
            file == out,
            "{path} is out of date: run `PBEM_REGENERATE=1 cargo test --lib gates_file`; \
             it should read:\n{out}"
        );
    }

    /// The gate of `kind` made from its rows' patterns: `None` when one
    /// row has neither a beginning nor an end every match holds.
    fn derive(kind: Kind) -> Option<(BTreeSet<String>, BTreeSet<String>)> {
        let (mut starts, mut ends) = (BTreeSet::new(), BTreeSet::new());
        for row in TABLE.iter().filter(|r| r.kind == kind) {
            let (first, literals) = row_ends(row.pattern)?;
            if first { &mut starts } else { &mut ends }.extend(literals);
        }
        Some((starts, ends))
    }

    /// What every match of `pattern` begins with (`true`, when anchored
    /// at the line's start), or else ends with (anchored at its end): a
    /// few literals read as the pattern is written (the table's patterns
    /// are matched ignoring case, and so is the gate).
    fn row_ends(pattern: &str) -> Option<(bool, Vec<String>)> {
        use regex_syntax::hir::Look;
        let hir = regex_syntax::parse(pattern).ok()?;
        let props = hir.properties();
        let start = props.look_set_prefix().contains(Look::Start);
        let end = props.look_set_suffix().contains(Look::End);
        start
            .then(|| literals(&hir, true).map(|l| (true, l)))
            .flatten()
            .or_else(|| {
                end.then(|| literals(&hir, false).map(|l| (false, l)))
                    .flatten()
            })
    }

    /// The literals every match of `hir` begins with (`prefix`) or ends
    /// with, each cut to whole characters; `None` when any may be empty
    /// or there are too many.
    fn literals(hir: &regex_syntax::hir::Hir, prefix: bool) -> Option<Vec<String>> {
        use regex_syntax::hir::literal::{ExtractKind, Extractor};
        let mut extractor = Extractor::new();
        let kind = if prefix {
            ExtractKind::Prefix
        } else {
            ExtractKind::Suffix
        };
        extractor.kind(kind).limit_literal_len(LONGEST);
        let seq = extractor.extract(hir);
        seq.literals()?
            .iter()
            .map(|l| {
                let bytes = l.as_bytes();
                let whole = if prefix {
                    match std::str::from_utf8(bytes) {
                        Ok(s) => s,
                        Err(e) => std::str::from_utf8(&bytes[..e.valid_up_to()]).ok()?,
                    }
                } else {
                    let skip =
                        (0..bytes.len()).find(|&i| std::str::from_utf8(&bytes[i..]).is_ok())?;
                    std::str::from_utf8(&bytes[skip..]).ok()?
                };
                (!whole.is_empty()).then(|| whole.to_string())
            })
            .collect()
    }
}
