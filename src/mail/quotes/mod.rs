//! What mail clients write around the old mail they copy into a reply:
//! separator lines, header blocks, attribution lines and "sent from"
//! signatures, in one table ([`TABLE`]) so that a client or language
//! missing is one row more, not one `if` more. `text::strip_quotes_with`
//! decides what to drop; this module only says what a line is.
//!
//! The wordings come from the clients themselves as collected by public
//! reply-parser test suites (talon, email_reply_trimmer, crisp's
//! email-reply-parser); the patterns and examples are ours. Every pattern
//! is matched case-insensitively against one line (attributions: up to
//! three lines joined by a space) with the quote prefix removed and the
//! rest trimmed. The `regex` crate matches in linear time, and lines
//! longer than any client writes are not looked at. [`HTML`] holds the
//! shapes of quoted mail in HTML-only mail.
//!
//! On the mail path, after [`super::text`] has the reply's own lines and
//! before [`super::command`] reads them. The rows are in [`table`], the
//! HTML shapes in [`html`].

use regex::{Regex, RegexSet};
use std::sync::{LazyLock, OnceLock};

mod gate;
mod gates;
mod html;
mod table;
#[cfg(test)]
mod tests;
use gate::Gate;

pub use html::{Cut, HTML, HtmlQuote};

/// The shapes no row of [`TABLE`] names, found by their form alone: a
/// header block of any language ([`generic_header`]) and an attribution
/// of any language (lines ending in a colon that hold an address, or a
/// day and a time). Real instances the table lacks.
pub const GENERIC: &[Row] = &[
    Row {
        name: "header/any",
        kind: Kind::Header,
        pattern: "",
        fields: "",
        evidence: Evidence::None,
        examples: &[
            "Från: pbem <pbem@example.net>\nSkickat: den 20 november 2026 10:00\nTill: Bob\nÄmne: SV: drag 3",
            "Feladó: pbem <pbem@example.net>\nElküldve: 2026. november 20. 10:00\nCímzett: Bob",
            "Αποστολέας: pbem <pbem@example.net>\nΑπεστάλη: Παρασκευή, 20 Νοεμβρίου 2026 10:00\nΠρος: Bob",
            "*Lähettäjä:* pbem [mailto:pbem@example.net]\n*Lähetetty:* 20. marraskuuta 2026 10.00\n*Vastaanottaja:* Bob",
            "Return-Path: <pbem@example.net>\nX-Original-To: alice@example.org\nDelivered-To: alice@example.org",
        ],
    },
    Row {
        name: "attribution/any",
        kind: Kind::Attribution,
        pattern: "",
        fields: "",
        evidence: Evidence::None,
        examples: &[
            "pbem <pbem@example.net> escreveu no dia sexta, 20/11/2026 à(s) 10:00:",
            "pbem <pbem@example.net> ezt írta (időpont: 2026. nov. 20., P 10:00):",
            "Στις Παρ 20 Νοε 2026 στις 10:00, ο/η pbem <pbem@example.net> έγραψε:",
            "בתאריך יום ו׳, 20 בנוב׳ 2026 ב-10:00 מאת pbem <pbem@example.net>:",
            "Le ven. 20 nov. 2026 à 10:00, Alexandra Zoë Konstantinopoulou-Smythe\n<\nalexandra.konstantinopoulou@example.org>\na écrit :",
        ],
    },
    Row {
        name: "separator/any",
        kind: Kind::Separator,
        pattern: "",
        fields: "",
        evidence: Evidence::None,
        examples: &[
            "-----Eredeti üzenet-----",
            "-------- Αρχικό μήνυμα --------",
            "----- 원본 메시지 -----",
            "-----Originalna poruka-----",
        ],
    },
];
pub use table::TABLE;

/// What a row recognises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A line that starts an unmarked copy of the old mail: everything from
    /// it down is old mail (`-----Original Message-----`).
    Separator,
    /// An Outlook-style header block: a `From:` label (`pattern`) followed
    /// within a few lines by a `Sent:`/`To:`/`Subject:` label (`fields`).
    /// Everything from the `From:` line down is old mail.
    Header,
    /// An attribution line above a quote (`On ... wrote:`), possibly
    /// wrapped over up to three lines; it ends with a colon.
    Attribution,
    /// A line that ends the reply when it stands alone (`-- `, `Sent from
    /// my iPhone`): nothing below it is a command.
    Signature,
}

/// What else an attribution must hold to count, for patterns that could
/// otherwise match a player's own sentence (`I wrote:`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evidence {
    /// The pattern itself is specific enough (`On ... wrote:`).
    None,
    /// An e-mail address or a date/time, on the first line.
    AddressOrDate,
    /// Both an e-mail address and a date/time, the first on the first line
    /// (Gmail's verbless Russian and Japanese attributions).
    AddressAndDate,
}

/// One recognised shape.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// `kind/language-or-client`, named in test failures.
    pub name: &'static str,
    pub kind: Kind,
    /// A regex over the trimmed line; for [`Kind::Header`] the `From` labels
    /// (an alternation, wrapped by `label_regex`).
    pub pattern: &'static str,
    /// [`Kind::Header`] only: the labels that may follow the `From` label.
    pub fields: &'static str,
    /// [`Kind::Attribution`] only.
    pub evidence: Evidence,
    /// Realistic instances, each recognised by this row (the tests check).
    pub examples: &'static [&'static str],
}

impl Row {
    /// Whether the row is one of [`GENERIC`]: a shape found by its form,
    /// with no wording of a client's.
    pub fn generic(&self) -> bool {
        self.pattern.is_empty()
    }
}

pub(super) const fn row(
    name: &'static str,
    kind: Kind,
    pattern: &'static str,
    examples: &'static [&'static str],
) -> Row {
    Row {
        name,
        kind,
        pattern,
        fields: "",
        evidence: Evidence::None,
        examples,
    }
}

pub(super) const fn header_row(
    name: &'static str,
    from: &'static str,
    fields: &'static str,
    examples: &'static [&'static str],
) -> Row {
    Row {
        name,
        kind: Kind::Header,
        pattern: from,
        fields,
        evidence: Evidence::None,
        examples,
    }
}

pub(super) const fn attribution_row(
    name: &'static str,
    pattern: &'static str,
    evidence: Evidence,
    examples: &'static [&'static str],
) -> Row {
    Row {
        name,
        kind: Kind::Attribution,
        pattern,
        fields: "",
        evidence,
        examples,
    }
}

/// Lines longer than this are nobody's separator, signature or header label.
const MAX_LINE: usize = 200;
/// An attribution, wrapped or not, is shorter than this.
const MAX_ATTRIBUTION: usize = 400;
/// How many lines an attribution may be wrapped over (Gmail wraps a
/// French one with a long name over four).
const ATTRIBUTION_LINES: usize = 4;
/// How many `Label: value` lines in a row make a header block of a
/// client and language no row knows.
const GENERIC_HEADER_LINES: usize = 3;
/// The longest label of a header line (`Enviado el`, `Gesendet`,
/// `送信日時`, `X-Original-To`), in characters.
const MAX_LABEL: usize = 30;
/// How many non-blank lines below a `From:` line may hold the next label.
const HEADER_REACH: usize = 4;

// The table compiled, each part on its first use: a regex over the
// Unicode classes costs milliseconds to compile, and a process that
// reads one mail compiles only what its lines ask for (a mail without a
// line ending in a colon never compiles the attributions).

/// `^*From*:` for the given label alternation: bold (`*From:*`,
/// `**Von:**`) and French spacing (`De :`) allowed, ASCII or fullwidth colon.
fn label_regex(labels: &str) -> String {
    format!(r"(?i)^[*_]*\s*(?:{labels})\s*[*_]*\s*[:：]")
}

/// A set of rows: every row's pattern with its counted repetitions left
/// open (`{1,60}` as `{1,}`), which matches every line the row does and
/// compiles in a fraction of the time (each counted copy of a Unicode
/// class is a copy in the automaton); a line it matches is then tried on
/// the row's own pattern, compiled the first time ([`first_match`]).
///
/// Before both, the set's [`Gate`]: the literals every row's match
/// begins or ends with. A line with none of them (most lines of a mail: a
/// move, a sentence, a quoted line) matches no row, and the set is never
/// compiled for it.
struct Rows {
    gate: Option<Gate>,
    loose: OnceLock<RegexSet>,
    rows: Vec<(OnceLock<Regex>, &'static Row)>,
}

fn set_of(kind: Kind) -> Rows {
    Rows {
        gate: Gate::of(kind),
        loose: OnceLock::new(),
        rows: TABLE
            .iter()
            .filter(|r| r.kind == kind)
            .map(|r| (OnceLock::new(), r))
            .collect(),
    }
}

impl Rows {
    fn loose(&self) -> &RegexSet {
        self.loose.get_or_init(|| {
            RegexSet::new(self.rows.iter().map(|(_, r)| ci(&loosened(r.pattern))))
                .expect("quote table patterns")
        })
    }
}

/// `pattern` with each `{m,n}` as `{m,}`: a pattern that matches all
/// that `pattern` does, and more. Braces escaped or inside a class are
/// left as they are.
fn loosened(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let (mut escaped, mut class) = (false, false);
    let mut chars = pattern.char_indices();
    while let Some((at, c)) = chars.next() {
        out.push(c);
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '[' => class = true,
            ']' => class = false,
            '{' if !class => {
                let rest = &pattern[at + 1..];
                let Some((m, n)) = rest.find('}').and_then(|end| rest[..end].split_once(','))
                else {
                    continue;
                };
                let counted = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
                if counted(m) && counted(n) {
                    out.push_str(m);
                    out.push(',');
                    // Skip to the closing brace, which the loop writes.
                    chars.nth(m.len() + n.len());
                }
            }
            _ => {}
        }
    }
    out
}

fn ci(pattern: &str) -> String {
    format!("(?i){pattern}")
}

fn header_rows() -> impl Iterator<Item = &'static Row> {
    TABLE.iter().filter(|r| r.kind == Kind::Header)
}

static SEPARATORS: LazyLock<Rows> = LazyLock::new(|| set_of(Kind::Separator));

static SIGNATURES: LazyLock<Rows> = LazyLock::new(|| set_of(Kind::Signature));

/// Per header row: its `From` labels and its field labels.
static HEADERS: LazyLock<Vec<(Regex, Regex, &'static Row)>> = LazyLock::new(|| {
    header_rows()
        .map(|r| {
            let from = Regex::new(&label_regex(r.pattern)).expect("header labels");
            let fields = Regex::new(&label_regex(r.fields)).expect("header labels");
            (from, fields, r)
        })
        .collect()
});

/// Every row's field labels in one regex: clients mix languages.
static FIELDS: LazyLock<Regex> = LazyLock::new(|| {
    let fields = header_rows().map(|r| r.fields).collect::<Vec<_>>();
    Regex::new(&label_regex(&fields.join("|"))).expect("header labels")
});

/// The attribution rows in order, each compiled when first tried.
static ATTRIBUTIONS: LazyLock<Vec<(OnceLock<Regex>, &'static Row)>> = LazyLock::new(|| {
    TABLE
        .iter()
        .filter(|r| r.kind == Kind::Attribution)
        .map(|r| (OnceLock::new(), r))
        .collect()
});

static ADDRESS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"<[^<>\s@]+@[^<>\s@]+>|[\w.+-]+@[\w-]+(?:\.[\w-]+)+").expect("address")
});

/// A year or a time of day: `22-15` and `#3 12-16` are neither.
static DATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:19|20)\d\d\b|(?:19|20)\d\d年|\b\d{1,2}[:.]\d\d\b|\d{1,2}時").expect("date")
});

/// [`GENERIC`]'s separator; only tried on a line with three dashes at
/// each end ([`separator`]).
static SEPARATOR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^-{3,}\s*\p{L}[\p{L}\p{M}' ]{2,40}-{3,}$").expect("separator"));

/// The `From` labels of every header row, a whole label.
static FROM_LABEL: LazyLock<Regex> = LazyLock::new(|| {
    let labels = header_rows().map(|r| r.pattern).collect::<Vec<_>>();
    Regex::new(&format!("(?i)^(?:{})$", labels.join("|"))).expect("from labels")
});

/// The word "forwarded" in the languages of the separators.
static FORWARD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)forward|weitergeleitet|transféré|réexpédié|reenviado|inoltrat|encaminhad|doorgestuurd|vidarebefordra|videresendt|välitetty|przekazan|przesłan|пересла|пересыла|переадрес|переслан|přeposlan|iletilen|yönlendiril|転送|转发|轉寄",
    )
    .expect("forward")
});

/// A calendar date: a year, or day and month in figures.
static DAY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(?:19|20)\d\d\b|(?:19|20)\d\d年|\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b|\d{1,2}月\d{1,2}日",
    )
    .expect("day")
});

/// A time of day.
static TIME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b\d{1,2}:\d\d\b|\b\d{1,2}h\d\d\b|\d{1,2}時|\b(?:klo|kl\.?)\s*\d{1,2}[.:]\d\d\b")
        .expect("time")
});

/// The line cleaned for matching: trimmed, and bold stars around a whole
/// line (`*-----Original Message-----*`) removed.
fn clean(line: &str) -> &str {
    line.trim().trim_matches('*').trim()
}

/// The first row of `set` whose own pattern matches `line`.
fn first_match(set: &Rows, line: &str) -> Option<&'static Row> {
    let line = clean(line);
    if line.is_empty() || line.len() > MAX_LINE {
        return None;
    }
    if set.gate.as_ref().is_some_and(|g| !g.may_match(line)) {
        return None;
    }
    set.loose().matches(line).iter().find_map(|i| {
        let (exact, row) = &set.rows[i];
        let exact = exact.get_or_init(|| Regex::new(&ci(row.pattern)).expect("quote table"));
        exact.is_match(line).then_some(*row)
    })
}

/// The separator row `line` is, if any: everything from it down is old
/// mail. A line of a few words of letters between runs of dashes in a
/// language no row knows (`-----Eredeti üzenet-----`) is one by its form.
pub fn separator(line: &str) -> Option<&'static Row> {
    first_match(&SEPARATORS, line).or_else(|| {
        let l = clean(line);
        let dashed = l.len() <= MAX_LINE && l.starts_with("---") && l.ends_with("---");
        (dashed && SEPARATOR.is_match(l)).then_some(&GENERIC[2])
    })
}

/// Whether a header label names the writer of the mail (`From`, `Von`,
/// `Från`, `差出人`...): the labels of the table's header rows.
pub fn is_from_label(label: &str) -> bool {
    FROM_LABEL.is_match(label.trim())
}

/// Whether a separator line starts a forwarded mail (another's, from
/// here to the end) rather than the old mail a reply answers.
pub fn forwards(line: &str) -> bool {
    FORWARD.is_match(clean(line))
}

/// The signature row `line` is, if any: nothing after it is a command.
/// `-- ` (with its space) is the standard signature separator; its trim
/// is `--`.
pub fn signature(line: &str) -> Option<&'static Row> {
    first_match(&SIGNATURES, line)
}

/// The header row whose block starts at line `i`: a `From:` label whose
/// value, if given, holds a letter (so `From: 22` is a move, not a header)
/// and another label within `HEADER_REACH` non-blank lines below. Rows
/// share labels (`De:` is French, Spanish and Portuguese), so the row
/// with the most labels below names the block; clients mixing languages
/// still count. A block no row knows counts by its shape
/// ([`generic_header`]).
pub fn header_block(lines: &[&str], i: usize) -> Option<&'static Row> {
    known_header(lines, i).or_else(|| generic_header(lines, i).then_some(&GENERIC[0]))
}

fn known_header(lines: &[&str], i: usize) -> Option<&'static Row> {
    let line = lines.get(i)?.trim();
    if line.len() > MAX_LINE || !line.contains([':', '：']) {
        return None;
    }
    let value = line.split_once([':', '：']).map_or("", |(_, v)| v);
    if !value.trim().trim_matches('*').is_empty()
        && !value.chars().any(|ch| ch.is_alphabetic() || ch == '@')
    {
        return None;
    }
    let below: Vec<&str> = lines[i + 1..]
        .iter()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .take(HEADER_REACH)
        .filter(|l| l.len() <= MAX_LINE && FIELDS.is_match(l))
        .collect();
    if below.is_empty() {
        return None;
    }
    let score = |fields: &Regex| below.iter().filter(|l| fields.is_match(l)).count();
    let mut best: Option<(&'static Row, usize)> = None;
    for (from, fields, row) in HEADERS.iter() {
        if from.is_match(line) {
            let s = score(fields);
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((row, s));
            }
        }
    }
    best.map(|(row, _)| row)
}

/// A line shaped `Label: value` as mail headers are, in any language and
/// script: a label of one to four words of letters (bold `*Från:*`, or
/// spaced `De :`), a colon, the value. The label and the value.
pub fn label_value(line: &str) -> Option<(&str, &str)> {
    let line = line.trim();
    if line.len() > MAX_LINE {
        return None;
    }
    let (label, value) = line.split_once([':', '：'])?;
    let label = label.trim().trim_matches(['*', '_']).trim();
    let words = label.split_whitespace().count();
    let lettered = label.chars().next().is_some_and(char::is_alphabetic)
        && label
            .chars()
            .all(|c| c.is_alphabetic() || c == ' ' || c == '-' || c == '.' || c == '\'');
    if !(1..=4).contains(&words) || !lettered || label.chars().count() > MAX_LABEL {
        return None;
    }
    Some((label, value.trim().trim_matches(['*', '_']).trim()))
}

/// Whether a header block of a client or language no row knows starts at
/// line `i`: [`GENERIC_HEADER_LINES`] `Label: value` lines in a row, one
/// value holding an address or a date, another value not empty
/// (`Från: pbem <pbem@example.net>` / `Skickat: den 20 november 2026` /
/// `Till: Bob` / `Ämne: SV: drag 3`).
pub fn generic_header(lines: &[&str], i: usize) -> bool {
    let run: Vec<&str> = lines[i.min(lines.len())..]
        .iter()
        .take(GENERIC_HEADER_LINES)
        .map_while(|l| label_value(l).map(|(_, v)| v))
        .collect();
    run.len() == GENERIC_HEADER_LINES
        && run.iter().filter(|v| !v.is_empty()).count() >= 2
        && run
            .iter()
            .any(|v| ADDRESS.is_match(v) || DAY.is_match(v) || TIME.is_match(v))
}

/// The attribution starting at line `i` of `lines` (all of the same quote
/// level, the caller's business): its row and how many lines it takes.
/// The shortest wrap that ends with a colon wins; a wrap never starts at
/// a line that ends with a colon itself or that is blank, and rows that
/// need evidence find it on the first line, so a move directly above an
/// attribution (`22-15` / `pbem <pbem@example.net> wrote:`) is never part
/// of it.
pub fn attribution(lines: &[&str], i: usize) -> Option<(&'static Row, usize)> {
    let first = lines.get(i)?.trim();
    if first.is_empty() || first.len() > MAX_ATTRIBUTION {
        return None;
    }
    let mut joined = String::new();
    for n in 1..=ATTRIBUTION_LINES {
        let line = lines.get(i + n - 1)?.trim();
        if line.is_empty() {
            return None;
        }
        if n > 1 {
            joined.push(' ');
        }
        joined.push_str(line);
        if joined.len() > MAX_ATTRIBUTION {
            return None;
        }
        if !(line.ends_with(':') || line.ends_with('：')) {
            continue;
        }
        let row = ATTRIBUTIONS.iter().find_map(|(re, row)| {
            let evident = match row.evidence {
                Evidence::None => true,
                Evidence::AddressOrDate => ADDRESS.is_match(first) || DATE.is_match(first),
                Evidence::AddressAndDate => {
                    (ADDRESS.is_match(first) || DATE.is_match(first))
                        && ADDRESS.is_match(&joined)
                        && DATE.is_match(&joined)
                }
            };
            let re = || re.get_or_init(|| Regex::new(&ci(row.pattern)).expect("attribution"));
            (evident && re().is_match(&joined)).then_some(*row)
        });
        // A wording no row knows, by its shape: an address, or a day and
        // a time, and some of it on the first line.
        let generic = || {
            (ADDRESS.is_match(first) || DATE.is_match(first) || DAY.is_match(first))
                && (ADDRESS.is_match(&joined) || (DAY.is_match(&joined) && TIME.is_match(&joined)))
        };
        // The first line ending with a colon closes the attribution,
        // matched or not.
        return row
            .or_else(|| generic().then_some(&GENERIC[1]))
            .map(|r| (r, n));
    }
    None
}
