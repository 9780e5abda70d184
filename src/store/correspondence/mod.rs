//! What pbem lately sent one address: the threads of its games with that
//! player, and the lines of its recent mails.
//!
//! - **Threads.** Every mail of one game to one player is In-Reply-To the
//!   previous mail pbem sent *that player* in that game (or the player's own
//!   mail it answers), and its References hold only Message-IDs that player
//!   has seen: the first of the thread and the last few. A player never sees
//!   the other player's Message-IDs, and every threaded client (Gmail, which
//!   threads by References and subject, among them) keeps one game in one
//!   thread.
//! - **Lines.** pbem knows what it wrote: the normalised lines of its recent
//!   mails to the address, by hash, so that a reply quoting them back in any
//!   way (a prefix pbem does not know, a language whose attribution it does
//!   not know, no marker at all) has them recognised and dropped with the
//!   block they stand in ([`crate::mail::text::strip_quotes_with`]).
//!
//! Bounded: lines older than [`KEEP_DAYS`] go, and at most [`MAX_LINES`]
//! are kept (the oldest go first); at most [`MAX_THREADS`] games' threads
//! are kept (the least recently used go first).
//!
//! On disk (`DATA/sent/<hash>.0` and `.1`): rewritten for every reply, in
//! place (no file made and freed per reply), and so in two slots written
//! in turn, each a [`slot_text`] with a sequence number and a checksum: a
//! write a crash tears leaves the slot before it whole, and the newest
//! whole slot is what is read ([`newest`]). A file of the single-file form
//! of before (`<hash>.json`, the JSON alone) is read when there is no
//! slot, and removed once its state is written to one.

use crate::lines;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How long a line pbem sent is remembered: a reply usually comes within
/// days; a player may answer a weeks-old mail after a vacation.
pub const KEEP_DAYS: i64 = 60;
/// The most lines remembered for one address (a few dozen mails' worth).
pub const MAX_LINES: usize = 4000;
/// What a memory over [`MAX_LINES`] is pruned to (the oldest go).
pub const PRUNED_LINES: usize = MAX_LINES - MAX_LINES / 8;
/// The most games' threads remembered for one address.
pub const MAX_THREADS: usize = 200;
/// The Message-IDs a thread keeps for References: the first, and the last
/// few (RFC 5322 section 3.6.4 allows trimming the middle).
pub const MAX_REFERENCES: usize = 8;

/// One game's thread with one player.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Thread {
    /// The last mail pbem sent the player in this game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last: Option<String>,
    /// Message-IDs the player has seen in this game, oldest first: the
    /// first of the thread, then the last few.
    #[serde(default)]
    pub seen: Vec<String>,
    /// The day of the last mail (`YYYY-MM-DD`), for pruning.
    #[serde(default)]
    pub used: String,
    /// The subject of the thread, as its first mail had it: kept for every
    /// later mail, so that a name learnt later (the challenged player's,
    /// when they accept) does not split the thread in clients that thread
    /// by subject.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
}

/// What pbem lately sent one address.
#[derive(Clone, Debug, Default)]
pub struct Correspondence {
    pub address: String,
    /// By game id.
    pub threads: BTreeMap<String, Thread>,
    /// The hash of each remembered line ([`line_key`]) and the day it
    /// was last sent ([`Day`]).
    pub lines: BTreeMap<u64, Day>,
    /// Where this state was read from, for the next write: never in the
    /// file.
    pub(super) stored: Stored,
    /// The cutoff the lines and threads were last pruned to
    /// ([`Correspondence::prune`]): one to no later day has nothing to
    /// drop, since what is added since is of a later day. Neither in the
    /// file nor in the state's equality.
    pub(super) pruned: Day,
}

impl PartialEq for Correspondence {
    fn eq(&self, other: &Correspondence) -> bool {
        (&self.address, &self.threads, &self.lines, &self.stored)
            == (&other.address, &other.threads, &other.lines, &other.stored)
    }
}

impl Eq for Correspondence {}

/// A day, counted from the first of the common era (chrono's
/// `num_days_from_ce`): a remembered line's day in a number, not a text.
pub type Day = i32;

/// A slot's first part: the address and the threads, as JSON on one line
/// (JSON, not TOML: it is read and written for every reply).
#[derive(Deserialize)]
struct Head {
    address: String,
    #[serde(default)]
    threads: BTreeMap<String, Thread>,
}

/// [`Head`] as it is written, borrowed from the state: a reply's write
/// copies no thread.
#[derive(Serialize)]
struct HeadOut<'a> {
    address: &'a str,
    threads: &'a BTreeMap<String, Thread>,
}

/// The form of before, all JSON: the lines a map of hex hashes to
/// `YYYY-MM-DD` days (slots of `pbem-sent 1`, and the single file).
#[derive(Deserialize)]
struct AllJson {
    address: String,
    #[serde(default)]
    threads: BTreeMap<String, Thread>,
    #[serde(default)]
    lines: BTreeMap<String, String>,
}

/// `day` as a [`Day`], when it is a `YYYY-MM-DD` date: read by hand in
/// the form pbem writes ([`iso_day`]), by chrono in any other it takes.
fn day_of(day: &str) -> Option<Day> {
    let b = day.as_bytes();
    let digits = |r: std::ops::Range<usize>| {
        b[r].iter().try_fold(0u32, |n, &d| {
            d.is_ascii_digit().then(|| n * 10 + u32::from(d - b'0'))
        })
    };
    let date = if b.len() == 10 && b[4] == b'-' && b[7] == b'-' {
        let (y, m, d) = (digits(0..4), digits(5..7), digits(8..10));
        match (y.and_then(|y| i32::try_from(y).ok()), m, d) {
            (Some(y), Some(m), Some(d)) => chrono::NaiveDate::from_ymd_opt(y, m, d),
            _ => None,
        }
    } else {
        None
    };
    date.or_else(|| chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d").ok())
        .map(|d| chrono::Datelike::num_days_from_ce(&d))
}

/// `date` as `YYYY-MM-DD`, as chrono's `%Y-%m-%d` writes it, without its
/// formatting machinery (a day is written for every reply staged and
/// every day of a memory written).
pub fn iso_day(date: chrono::NaiveDate) -> String {
    use chrono::Datelike;
    let Ok(year @ 0..=9999) = u32::try_from(date.year()) else {
        return date.format("%Y-%m-%d").to_string();
    };
    use crate::store::ids::push_digits;
    let mut s = String::with_capacity(10);
    push_digits(&mut s, year, 4);
    s.push('-');
    push_digits(&mut s, date.month(), 2);
    s.push('-');
    push_digits(&mut s, date.day(), 2);
    s
}

/// `day` as `YYYY-MM-DD` (empty when out of chrono's range: a day that
/// has no date: [`Correspondence::body`] leaves its lines out).
fn day_text(day: Day) -> String {
    chrono::NaiveDate::from_num_days_from_ce_opt(day)
        .map(iso_day)
        .unwrap_or_default()
}

/// Where a [`Correspondence`] was read from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Stored {
    /// The sequence number of the newest whole slot (0: none).
    pub(super) seq: u64,
    /// That slot, whose state the next write must not tear: it goes to
    /// the other one.
    pub(super) slot: Option<usize>,
    /// A file of the single-file form was there (no slot was whole).
    pub(super) legacy: bool,
}

/// The first words of a slot's first line, which then gives the sequence
/// number, the length of the body below and its checksum. Form 2 (written
/// now): the [`Head`] on one line, then a line a day, `YYYY-MM-DD` and
/// the hashes of that day's lines in hex ([`Correspondence::body`]).
/// Form 1 (read still): the body all JSON ([`AllJson`]).
const SLOT_FORMS: [&str; 2] = ["pbem-sent 1", "pbem-sent 2"];

/// A slot's text: its first line (`pbem-sent 2 SEQ LEN SUM`) and `body`.
pub(super) fn slot_text(seq: u64, body: &str) -> String {
    format!(
        "{} {seq} {} {:016x}\n{body}",
        SLOT_FORMS[1],
        body.len(),
        checksum(body.as_bytes())
    )
}

/// A slot's form (1 or 2), sequence number, checksum and body, when its
/// first line reads and the body below it has the length it gives: a
/// slot cut short has not, and its checksum is left to check.
fn read_slot(text: &str) -> Option<(u8, u64, u64, &str)> {
    let (head, body) = text.split_once('\n')?;
    let (form, rest) = SLOT_FORMS
        .iter()
        .zip(1..)
        .find_map(|(f, n)| Some((n, head.strip_prefix(f)?)))?;
    let mut words = rest.split_whitespace();
    let seq = words.next()?.parse().ok()?;
    let len: usize = words.next()?.parse().ok()?;
    let sum = u64::from_str_radix(words.next()?, 16).ok()?;
    (words.next().is_none() && body.len() == len).then_some((form, seq, sum, body))
}

/// The newest whole one of two slots' texts (`None`: no such file), as
/// its slot, sequence number and state: the newer is checked first, and
/// the older only when the newer is torn. A whole slot whose body does
/// not read is no state (the address starts afresh).
pub(super) fn newest(slots: [Option<&str>; 2]) -> Option<(usize, u64, Option<Correspondence>)> {
    let mut read: Vec<(usize, u8, u64, u64, &str)> = slots
        .into_iter()
        .enumerate()
        .filter_map(|(i, t)| {
            t.and_then(read_slot)
                .map(|(form, seq, sum, body)| (i, form, seq, sum, body))
        })
        .collect();
    read.sort_by_key(|&(_, _, seq, _, _)| std::cmp::Reverse(seq));
    read.into_iter()
        .find(|&(_, _, _, sum, body)| checksum(body.as_bytes()) == sum)
        .map(|(i, form, seq, _, body)| {
            let state = match form {
                1 => Correspondence::from_json(body),
                _ => Correspondence::from_body(body),
            };
            (i, seq, state)
        })
}

/// A checksum of a slot's text (it runs for every reply, on up to a few
/// hundred kilobytes): [`crate::store::ids::lane_hash`]. No code that
/// corrects anything; only enough that a torn write never matches it.
pub use crate::store::ids::lane_hash as checksum;

/// The key of a line for remembering: `None` for a line too short or too
/// bare to tell anything (blank lines, `--`, `+----+` borders, a name):
/// such a line of the player's own, matching by chance, must not be taken
/// for pbem's. Case, spacing and trailing punctuation do not count, since
/// clients re-space and re-case what they quote.
pub fn line_key(line: &str) -> Option<u64> {
    // As the quote reader sees a line: without what could be a quote
    // prefix (`| B3 | 6 |`, a row of a board, is `B3 | 6 |` there).
    let bytes = line.as_bytes();
    let prefix = bytes
        .iter()
        .position(|b| !matches!(b, b'>' | b'|' | b'\t' | b' '))
        .unwrap_or(bytes.len());
    // The prefix is ASCII: the rest starts on a character's boundary.
    let line = &line[prefix..];
    if line.is_ascii() {
        return ascii_line_key(line.as_bytes());
    }
    let mut joined = String::with_capacity(line.len());
    for word in line.split_whitespace() {
        if !joined.is_empty() {
            joined.push(' ');
        }
        // A word's own lower case (a final `Σ` is `ς`), ASCII at once.
        if word.is_ascii() {
            joined.extend(word.bytes().map(|b| char::from(b.to_ascii_lowercase())));
        } else {
            joined.push_str(&word.to_lowercase());
        }
    }
    key_of_joined(&joined)
}

/// How many lines [`remembered_line_key`] remembers the key of.
const REMEMBERED_KEYS: usize = 1024;

/// [`line_key`], remembered for the last lines this thread keyed (at most
/// [`REMEMBERED_KEYS`], forgotten all at once when full): the replies of
/// a poll repeat most of their lines (the words around the board, the
/// board both players of a game are sent), and a line is found again in
/// a tenth of the time its key takes.
fn remembered_line_key(line: &str) -> Option<u64> {
    type Keys = std::collections::HashMap<
        Box<str>,
        Option<u64>,
        std::hash::BuildHasherDefault<super::ids::PathHasher>,
    >;
    thread_local! {
        static KEYS: std::cell::RefCell<Keys> = std::cell::RefCell::default();
    }
    KEYS.with_borrow_mut(|keys| {
        if let Some(k) = keys.get(line) {
            return *k;
        }
        let k = line_key(line);
        if keys.len() >= REMEMBERED_KEYS {
            keys.clear();
        }
        keys.insert(line.into(), k);
        k
    })
}

/// The key of a line's words as [`line_key`] joined them: `None` for too
/// little (see there).
fn key_of_joined(joined: &str) -> Option<u64> {
    let joined = joined.trim_end_matches(['.', '!', ',', ':', ';']);
    let alnum = joined.chars().filter(|c| c.is_alphanumeric()).count();
    if joined.chars().count() < 8 || alnum < 4 {
        return None;
    }
    Some(super::stable_hash(joined.as_bytes()))
}

/// The state a slot file's `text` holds, when it is one whole slot of
/// either form whose body reads (what [`crate::store::Store`] reads,
/// for one file; the fuzz target `sent` reads any text with it).
pub fn state_of_slot(text: &str) -> Option<Correspondence> {
    newest([Some(text), None]).and_then(|(_, _, state)| state)
}

/// [`line_key`] of a line all ASCII (nearly every line pbem writes),
/// nothing kept: the joined words, lowered, are hashed as they are met,
/// and measured in bytes (one a character in ASCII, whose letters and
/// digits are its alphanumerics): the same words, spaces and case as the
/// general way, and so the same key, at a fraction of the cost (staging
/// a reply keys each of its lines).
///
/// What the general way cuts off the joined words' end (trailing
/// punctuation, up to the last space or other character) is found first,
/// from the line's end, so that the pass forward hashes each byte it
/// keeps once and looks at nothing else.
fn ascii_line_key(line: &[u8]) -> Option<u64> {
    let (kept, space) = ascii_kept(line);
    let mut hash = super::ids::StableHash::new();
    let (mut len, mut alnum) = (0usize, 0usize);
    let mut gap = false;
    for &b in &line[..kept] {
        let class = ASCII_CLASS[usize::from(b)];
        if class & SPACE != 0 {
            gap = len > 0;
            continue;
        }
        if gap {
            hash.write(b' ');
            len += 1;
            gap = false;
        }
        hash.write(b.to_ascii_lowercase());
        len += 1;
        alnum += usize::from(class & ALNUM);
    }
    if space && len > 0 {
        hash.write(b' ');
        len += 1;
    }
    (len >= 8 && alnum >= 4).then(|| hash.finish())
}

/// How much of an ASCII line's start holds the words the general way
/// keeps once it has cut the trailing punctuation off its joined words,
/// and whether a space follows them there: when the last word is all
/// punctuation, the space before it is the joined text's last character
/// that is not punctuation, and it stays.
fn ascii_kept(line: &[u8]) -> (usize, bool) {
    let mut end = line.len();
    while end > 0 && ASCII_CLASS[usize::from(line[end - 1])] & SPACE != 0 {
        end -= 1;
    }
    let mut i = end;
    while i > 0 {
        let class = ASCII_CLASS[usize::from(line[i - 1])];
        if class & SPACE != 0 {
            // Trailing punctuation after a gap: the words before it, and
            // the gap as one space.
            return (i - 1, true);
        }
        if class & PUNCTUATION == 0 {
            return (i, false);
        }
        i -= 1;
    }
    (0, false)
}

/// [`ASCII_CLASS`]: a letter or digit (the lowest bit, so that the
/// class counts it).
const ALNUM: u8 = 1;
/// [`ASCII_CLASS`]: what `char::is_whitespace` takes in ASCII (tab to
/// carriage return, and the space).
const SPACE: u8 = 2;
/// [`ASCII_CLASS`]: what the general way cuts off the end of the joined
/// words.
const PUNCTUATION: u8 = 4;

/// Each byte's class for [`ascii_line_key`]: [`ALNUM`], [`SPACE`],
/// [`PUNCTUATION`] or none.
static ASCII_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = if matches!(c, b'\t'..=b'\r' | b' ') {
            SPACE
        } else if c.is_ascii_alphanumeric() {
            ALNUM
        } else if matches!(c, b'.' | b'!' | b',' | b':' | b';') {
            PUNCTUATION
        } else {
            0
        };
        b += 1;
    }
    table
};

impl Correspondence {
    pub fn new(address: &str) -> Correspondence {
        Correspondence {
            address: address.to_string(),
            ..Correspondence::default()
        }
    }

    /// The body of a slot of form 2: the [`Head`] as JSON on one line,
    /// then a line a day, oldest first: `YYYY-MM-DD` and the hashes of
    /// the lines last sent that day, in hex, in order. About 17 bytes a
    /// line where the all-JSON form took 30, and read without a parser.
    ///
    /// # Errors
    /// When the threads do not make JSON (they always do).
    pub(super) fn body(&self) -> Result<String, serde_json::Error> {
        let head = serde_json::to_string(&HeadOut {
            address: &self.address,
            threads: &self.threads,
        })?;
        // The lines of each day, in the order of their keys: a memory
        // spans a few days (at most [`KEEP_DAYS`]), most of its lines
        // sent on the last, so the day of the line before is tried first.
        let mut by_day: Vec<(Day, Vec<u64>)> = Vec::new();
        let mut last = 0;
        for (&key, &day) in &self.lines {
            if by_day.get(last).is_none_or(|(d, _)| *d != day) {
                last = match by_day.iter().position(|(d, _)| *d == day) {
                    Some(i) => i,
                    None => {
                        by_day.push((day, Vec::new()));
                        by_day.len() - 1
                    }
                };
            }
            by_day[last].1.push(key);
        }
        by_day.sort_unstable_by_key(|&(day, _)| day);
        // In bytes, read as text once at the end: a key's digits are
        // pushed as they are, not checked one key at a time.
        let mut body = Vec::with_capacity(head.len() + 2 + 17 * self.lines.len());
        body.extend_from_slice(head.as_bytes());
        body.push(b'\n');
        for (day, keys) in by_day {
            let day = day_text(day);
            if day.is_empty() {
                continue;
            }
            body.extend_from_slice(day.as_bytes());
            for key in keys {
                body.push(b' ');
                body.extend_from_slice(&super::ids::hex16(key));
            }
            body.push(b'\n');
        }
        // Always text: JSON, dates and hex digits.
        Ok(String::from_utf8(body)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
    }

    /// This state as the text of a slot with sequence number `seq`, as
    /// the store writes it.
    ///
    /// # Errors
    /// When the threads do not make JSON (they always do).
    pub fn slot(&self, seq: u64) -> Result<String, serde_json::Error> {
        Ok(slot_text(seq, &self.body()?))
    }

    /// The state a body of form 2 holds; `None` when any of it does not
    /// read.
    pub(super) fn from_body(body: &str) -> Option<Correspondence> {
        let (head, days) = body.split_once('\n')?;
        let head: Head = serde_json::from_str(head).ok()?;
        let mut lines = Vec::with_capacity(days.len() / 17);
        for line in lines::lines(days) {
            // `YYYY-MM-DD`, then ` ` and 16 hex digits a key.
            let (date, keys) = line.split_at_checked(10)?;
            let day = day_of(date)?;
            if keys.len() % 17 != 0 {
                return None;
            }
            for key in keys.as_bytes().chunks_exact(17) {
                let (space, digits) = key.split_first()?;
                if *space != b' ' {
                    return None;
                }
                lines.push((super::ids::parse_hex16(digits)?, day));
            }
        }
        Some(Correspondence {
            address: head.address,
            threads: head.threads,
            lines: lines.into_iter().collect(),
            ..Correspondence::default()
        })
    }

    /// The state a text of the all-JSON form of before holds (a slot of
    /// form 1, or the single file); `None` when it does not read. A line
    /// whose hash or day does not read is left out.
    pub(super) fn from_json(json: &str) -> Option<Correspondence> {
        let old: AllJson = serde_json::from_str(json).ok()?;
        let lines = old
            .lines
            .iter()
            .filter_map(|(k, day)| Some((u64::from_str_radix(k, 16).ok()?, day_of(day)?)))
            .collect();
        Some(Correspondence {
            address: old.address,
            threads: old.threads,
            lines,
            ..Correspondence::default()
        })
    }

    /// Whether pbem lately sent this line (see [`line_key`]).
    pub fn knows(&self, line: &str) -> bool {
        line_key(line).is_some_and(|k| self.lines.contains_key(&k))
    }

    /// The subject of the thread of game `game`, once it has one.
    pub fn subject(&self, game: &str) -> Option<&str> {
        self.threads.get(game).and_then(|t| t.subject.as_deref())
    }

    /// In-Reply-To and References for the next mail in game `game`,
    /// answering the player's own mail `answering` if it does.
    pub fn headers(&self, game: &str, answering: Option<&str>) -> (Option<String>, Vec<String>) {
        let thread = self.threads.get(game);
        let mut refs: Vec<String> = thread.map(|t| t.seen.clone()).unwrap_or_default();
        let in_reply_to = answering
            .map(str::to_string)
            .or_else(|| thread.and_then(|t| t.last.clone()));
        if let Some(irt) = &in_reply_to
            && !refs.contains(irt)
        {
            refs.push(irt.clone());
        }
        (in_reply_to, cap(refs))
    }

    /// Notes a mail pbem sends the player in game `game` (`None`: a mail
    /// about no game, which joins no thread): its Message-ID, the
    /// player's mail it answers, and its text's lines, on day `today`.
    pub fn sent(
        &mut self,
        game: Option<&str>,
        subject: &str,
        message_id: &str,
        answering: Option<&str>,
        text: &str,
        today: &str,
    ) {
        if let Some(game) = game {
            let t = self.threads.entry(game.to_string()).or_default();
            t.subject.get_or_insert_with(|| subject.to_string());
            for id in answering.into_iter().chain([message_id]) {
                if !t.seen.iter().any(|s| s == id) {
                    t.seen.push(id.to_string());
                }
            }
            t.seen = cap(std::mem::take(&mut t.seen));
            t.last = Some(message_id.to_string());
            t.used = today.to_string();
        }
        // A day that does not read (never so from the outbox) prunes
        // nothing, and its lines are not remembered (no day to write
        // them under): the state stays what its body reads back as.
        let day = day_of(today);
        if let Some(day) = day {
            for k in lines::lines(text).filter_map(remembered_line_key) {
                self.lines.insert(k, day);
            }
        }
        self.prune(day.map_or(Day::MIN, |d| d - KEEP_DAYS as Day));
    }

    /// Drops what is older than `cutoff` or over the bounds. It runs for
    /// every reply on a memory of up to [`MAX_LINES`] lines: the cutoff's
    /// pass only when the cutoff moved on since the last, and a memory
    /// over its bound drops to [`PRUNED_LINES`], so that the lines of the
    /// next few dozen replies come in before it is pruned again.
    fn prune(&mut self, cutoff: Day) {
        if cutoff > self.pruned {
            self.pruned = cutoff;
            self.lines.retain(|_, day| *day >= cutoff);
            // Dates in ISO form compare as text.
            let cutoff = day_text(cutoff);
            self.threads.retain(|_, t| t.used >= cutoff);
        }
        if self.lines.len() > MAX_LINES {
            // The oldest go first; of one day's, by hash, a fair coin.
            let mut by_age: Vec<(Day, u64)> = self.lines.iter().map(|(&k, &d)| (d, k)).collect();
            let goes = by_age.len() - PRUNED_LINES;
            by_age.select_nth_unstable(goes);
            for (_, key) in &by_age[..goes] {
                self.lines.remove(key);
            }
        }
        while self.threads.len() > MAX_THREADS {
            let oldest = self
                .threads
                .iter()
                .min_by(|a, b| a.1.used.cmp(&b.1.used))
                .map(|(k, _)| k.clone())
                .unwrap_or_default();
            self.threads.remove(&oldest);
        }
    }
}

/// What `address` has in the files of `other`, another address with the
/// same hash: nothing, where `other`'s state was read from (the next write
/// goes to the other slot).
pub(super) fn for_address(other: &Correspondence, address: &str) -> Correspondence {
    Correspondence {
        stored: other.stored,
        ..Correspondence::new(address)
    }
}

/// The first Message-ID and the last ones, at most [`MAX_REFERENCES`].
fn cap(mut ids: Vec<String>) -> Vec<String> {
    if ids.len() > MAX_REFERENCES {
        ids.drain(1..ids.len() - (MAX_REFERENCES - 1));
    }
    ids
}

#[cfg(test)]
mod tests;
