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

/// `day` as a [`Day`], when it is a `YYYY-MM-DD` date.
fn day_of(day: &str) -> Option<Day> {
    chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d")
        .ok()
        .map(|d| chrono::Datelike::num_days_from_ce(&d))
}

/// `day` as `YYYY-MM-DD` (empty when out of chrono's range: a day that
/// has no date: [`Correspondence::body`] leaves its lines out).
fn day_text(day: Day) -> String {
    chrono::NaiveDate::from_num_days_from_ce_opt(day)
        .map(|d| d.format("%Y-%m-%d").to_string())
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

/// A checksum of a slot's JSON (it runs for every reply, on up to a few
/// hundred kilobytes): four lanes of eight bytes, each a multiply and a
/// shift per word, so that the lanes run side by side. No code that
/// corrects anything; only enough that a torn write never matches it.
pub fn checksum(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mix = |h: u64, word: u64| {
        let h = (h ^ word).wrapping_mul(K);
        h ^ (h >> 32)
    };
    let word = |b: &[u8]| {
        let mut w = [0; 8];
        w[..b.len()].copy_from_slice(b);
        u64::from_le_bytes(w)
    };
    let mut lanes = [K, K ^ 1, K ^ 2, K ^ 3];
    let mut blocks = bytes.chunks_exact(32);
    for block in &mut blocks {
        for (lane, w) in lanes.iter_mut().zip(block.chunks_exact(8)) {
            *lane = mix(*lane, word(w));
        }
    }
    let mut h = mix(K, bytes.len() as u64);
    for lane in lanes {
        h = mix(h, lane);
    }
    for w in blocks.remainder().chunks(8) {
        h = mix(h, word(w));
    }
    h
}

/// The key of a line for remembering: `None` for a line too short or too
/// bare to tell anything (blank lines, `--`, `+----+` borders, a name):
/// such a line of the player's own, matching by chance, must not be taken
/// for pbem's. Case, spacing and trailing punctuation do not count, since
/// clients re-space and re-case what they quote.
pub fn line_key(line: &str) -> Option<u64> {
    // As the quote reader sees a line: without what could be a quote
    // prefix (`| B3 | 6 |`, a row of a board, is `B3 | 6 |` there).
    let line = line.trim_start_matches(['>', '|', '\t', ' ']);
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

/// [`line_key`] of a line all ASCII (nearly every line pbem writes), in
/// one pass and nothing kept: the words joined by one space and lowered
/// are hashed as they are made, the hash and length noted after each
/// byte that is not trailing punctuation (what the general way cuts
/// before it hashes), and measured in bytes (one a character in ASCII,
/// whose letters and digits are its alphanumerics): the same words,
/// spaces and case as the general way, and so the same key, at a
/// fraction of the cost (staging a reply keys each of its lines).
fn ascii_line_key(line: &[u8]) -> Option<u64> {
    let mut hash = super::ids::StableHash::new();
    // The joined words' length, and the hash and length at the end of
    // the last byte that is no trailing punctuation.
    let (mut len, mut kept, mut kept_len) = (0usize, hash, 0usize);
    let mut alnum = 0;
    let mut gap = false;
    for &b in line {
        // What `char::is_whitespace` takes in ASCII: tab to carriage
        // return, and the space.
        if matches!(b, b'\t'..=b'\r' | b' ') {
            gap = len > 0;
            continue;
        }
        if gap {
            hash.write(b' ');
            len += 1;
            (kept, kept_len) = (hash, len);
            gap = false;
        }
        hash.write(b.to_ascii_lowercase());
        len += 1;
        alnum += usize::from(b.is_ascii_alphanumeric());
        if !matches!(b, b'.' | b'!' | b',' | b':' | b';') {
            (kept, kept_len) = (hash, len);
        }
    }
    (kept_len >= 8 && alnum >= 4).then(|| kept.finish())
}

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
        let mut by_day: BTreeMap<Day, Vec<u64>> = BTreeMap::new();
        for (&key, &day) in &self.lines {
            by_day.entry(day).or_default().push(key);
        }
        let mut body = String::with_capacity(head.len() + 2 + 17 * self.lines.len());
        body.push_str(&head);
        body.push('\n');
        for (day, keys) in by_day {
            let day = day_text(day);
            if day.is_empty() {
                continue;
            }
            body.push_str(&day);
            for key in keys {
                body.push(' ');
                super::ids::push_hex16(&mut body, key);
            }
            body.push('\n');
        }
        Ok(body)
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
        let mut lines = Vec::new();
        for line in lines::lines(days) {
            let mut words = lines::pieces(line, b' ');
            let day = day_of(words.next()?)?;
            for key in words {
                if key.len() != 16 {
                    return None;
                }
                lines.push((u64::from_str_radix(key, 16).ok()?, day));
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
            for k in lines::lines(text).filter_map(line_key) {
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
            self.lines.retain(|_, day| *day >= cutoff);
            // Dates in ISO form compare as text.
            let cutoff = day_text(cutoff);
            self.threads.retain(|_, t| t.used >= cutoff);
        }
        self.pruned = self.pruned.max(cutoff);
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
mod tests {
    use super::*;

    #[test]
    fn a_torn_newest_slot_reads_as_the_slot_before_it() {
        let mut c = Correspondence::new("alice@example.org");
        c.sent(
            Some("bz-1"),
            "s",
            "<p.1@x>",
            None,
            "first mail",
            "2026-11-20",
        );
        let old_state = c.clone();
        let old = c.body().unwrap();
        c.sent(
            Some("bz-1"),
            "s",
            "<p.2@x>",
            None,
            "second mail",
            "2026-11-21",
        );
        let new = slot_text(8, &c.body().unwrap());
        let before = slot_text(7, &old);
        // Whole, the newer one wins, in either slot.
        assert_eq!(newest([Some(&before), Some(&new)]).map(|n| n.1), Some(8));
        assert_eq!(newest([Some(&new), Some(&before)]).map(|n| n.1), Some(8));
        // Torn at every byte: cut short, or its tail zeroed.
        let expect = Some((0, 7, Some(old_state)));
        assert!(new.is_ascii());
        for at in 0..new.len() {
            let cut = &new[..at];
            assert_eq!(
                newest([Some(&before), Some(cut)]),
                expect.clone(),
                "cut at {at}"
            );
            let zeroed = format!("{}{}", cut, "\0".repeat(new.len() - cut.len()));
            assert_eq!(
                newest([Some(&before), Some(&zeroed)]),
                expect.clone(),
                "zeroed from {at}"
            );
        }
        // Old bytes left under new ones (a longer old state).
        let longer = format!("{new}{}", &before[new.len().min(before.len())..]);
        if longer != new {
            assert_eq!(newest([Some(&before), Some(&longer)]), expect.clone());
        }
        assert_eq!(newest([None, None]), None);
        assert_eq!(newest([Some("{}"), Some("")]), None);
    }

    #[test]
    fn threads_follow_one_player_and_stay_short() {
        let mut c = Correspondence::new("alice@example.org");
        assert_eq!(c.headers("bz-1", None), (None, vec![]));
        c.sent(Some("bz-1"), "s", "<p.0@x>", None, "", "2026-11-20");
        let (irt, refs) = c.headers("bz-1", None);
        assert_eq!(irt.as_deref(), Some("<p.0@x>"));
        assert_eq!(refs, ["<p.0@x>"]);
        // Answering the player's own mail: it is In-Reply-To, and joins.
        let (irt, refs) = c.headers("bz-1", Some("<a.1@y>"));
        assert_eq!(irt.as_deref(), Some("<a.1@y>"));
        assert_eq!(refs, ["<p.0@x>", "<a.1@y>"]);
        for n in 1..30 {
            c.sent(
                Some("bz-1"),
                "t",
                &format!("<p.{n}@x>"),
                None,
                "",
                "2026-11-20",
            );
        }
        let (irt, refs) = c.headers("bz-1", None);
        assert_eq!(irt.as_deref(), Some("<p.29@x>"));
        assert_eq!(refs.len(), MAX_REFERENCES);
        assert_eq!(refs[0], "<p.0@x>");
        assert_eq!(refs.last().map(String::as_str), Some("<p.29@x>"));
        // The first subject stays the thread's.
        assert_eq!(c.subject("bz-1"), Some("s"));
        // Another game is another thread.
        assert_eq!(c.headers("bz-2", None), (None, vec![]));
    }

    /// [`line_key`] the general way, for any text.
    fn line_key_by_chars(line: &str) -> Option<u64> {
        let line = line.trim_start_matches(['>', '|', '\t', ' ']);
        let mut joined = String::new();
        for word in line.split_whitespace() {
            if !joined.is_empty() {
                joined.push(' ');
            }
            joined.push_str(&word.to_lowercase());
        }
        let joined = joined.trim_end_matches(['.', '!', ',', ':', ';']);
        let alnum = joined.chars().filter(|c| c.is_alphanumeric()).count();
        if joined.chars().count() < 8 || alnum < 4 {
            return None;
        }
        Some(crate::store::stable_hash(joined.as_bytes()))
    }

    #[test]
    fn an_ascii_line_keys_as_the_general_way_keys_it() {
        let mut rng = fastrand::Rng::with_seed(3);
        let bytes = b"aB1 \t\n\x0b\x0c\r>|.!,:;-#xyZ9\x1f\x7f";
        let mut keyed = 0;
        for _ in 0..20_000 {
            let line: String = (0..rng.usize(0..24))
                .map(|_| char::from(bytes[rng.usize(..bytes.len())]))
                .collect();
            keyed += usize::from(line_key(&line).is_some());
            assert_eq!(line_key(&line), line_key_by_chars(&line), "{line:?}");
        }
        assert!(keyed > 1000, "{keyed} lines keyed");
        // Lines pbem writes.
        for line in [
            "| B3 | B3 |  6 | B3 | B3 |  1-8",
            "The legal moves from 50: 50-51 50-52.",
            "  Line 1: if 34-25 then 4x25",
            "Ünïcode stays on the general way",
        ] {
            assert_eq!(line_key(line), line_key_by_chars(line), "{line}");
        }
    }

    #[test]
    fn lines_are_known_whatever_their_case_spacing_and_end() {
        let mut c = Correspondence::new("a@x");
        c.sent(
            None,
            "s",
            "<p@x>",
            None,
            "The legal moves from 50: 50-51 50-52\n--\n+----+----+\nBob\n",
            "2026-11-20",
        );
        assert!(c.knows("the  legal moves FROM 50: 50-51 50-52."));
        assert!(!c.knows("--"));
        assert!(!c.knows("Bob"));
        assert!(!c.knows("+----+----+"));
        // A board's row, as a quote reader sees it.
        assert!(!c.knows("| B3 | B3 |  6 | B3 | B3 |  1-8"));
        c.sent(
            None,
            "s",
            "<q@x>",
            None,
            "| B3 | B3 |  6 | B3 | B3 |  1-8\n",
            "2026-11-20",
        );
        assert!(c.knows("B3 | B3 |  6 | B3 | B3 |  1-8"));
        assert!(!c.knows("13-21"));
    }

    #[test]
    fn old_lines_and_threads_are_forgotten() {
        let mut c = Correspondence::new("a@x");
        c.sent(
            Some("g"),
            "s",
            "<1@x>",
            None,
            "an old line of text",
            "2026-01-01",
        );
        c.sent(
            Some("h"),
            "s",
            "<2@x>",
            None,
            "a new line of text",
            "2026-11-20",
        );
        assert!(!c.knows("an old line of text"));
        assert!(c.knows("a new line of text"));
        assert!(!c.threads.contains_key("g"));
        let text: String = (0..MAX_LINES + 50)
            .map(|i| format!("line number {i}\n"))
            .collect();
        c.sent(None, "s", "<3@x>", None, &text, "2026-11-21");
        assert_eq!(c.lines.len(), PRUNED_LINES);
        // Over the bound again, the oldest day's lines go first, and all
        // of today's stay.
        let today: Vec<String> = (0..MAX_LINES / 4)
            .map(|i| format!("another line, number {i}"))
            .collect();
        c.sent(None, "s", "<4@x>", None, &today.join("\n"), "2026-11-22");
        assert_eq!(c.lines.len(), PRUNED_LINES);
        assert!(today.iter().all(|l| c.knows(l)));
        let (d21, d22) = (day_of("2026-11-21").unwrap(), day_of("2026-11-22").unwrap());
        assert_eq!(
            c.lines.values().filter(|&&d| d == d22).count(),
            MAX_LINES / 4
        );
        assert_eq!(
            c.lines.values().filter(|&&d| d == d21).count(),
            PRUNED_LINES - MAX_LINES / 4
        );
        // Pruned again only when a day has gone by: a line of a day past
        // the cutoff, put back by hand, stays until then.
        c.lines.insert(1, d21 - KEEP_DAYS as Day - 1);
        c.sent(
            None,
            "s",
            "<5@x>",
            None,
            "one more line of text",
            "2026-11-22",
        );
        assert!(c.lines.contains_key(&1));
        c.sent(
            None,
            "s",
            "<6@x>",
            None,
            "one more line of text",
            "2026-11-23",
        );
        assert!(!c.lines.contains_key(&1));
    }

    #[test]
    fn a_body_reads_back_as_the_state_it_was_written_from() {
        let mut rng = fastrand::Rng::with_seed(7);
        for round in 0..200 {
            let mut c = Correspondence::new(&format!("p{round}@example.org"));
            for n in 0..rng.usize(0..5) {
                c.sent(
                    Some(&format!("g-{n}")),
                    "Re: \"quoted\" \u{e9}",
                    &format!("<m.{n}@x>"),
                    None,
                    "",
                    "2026-11-20",
                );
            }
            for _ in 0..rng.usize(0..300) {
                // Any hash (leading zeros, the top bit), any day chrono has.
                let day = rng.i32(1..3_000_000);
                c.lines.insert(rng.u64(..) >> rng.u32(0..64), day);
            }
            let body = c.body().unwrap();
            assert_eq!(Correspondence::from_body(&body), Some(c.clone()), "{body}");
            // Whole again through a slot.
            let slot = slot_text(3, &body);
            assert_eq!(newest([None, Some(&slot)]), Some((1, 3, Some(c))));
        }
    }

    #[test]
    fn a_slot_of_the_all_json_form_still_reads() {
        let json = r#"{"address":"a@x","threads":{"g":{"last":"<p.1@x>","seen":["<p.1@x>"],"used":"2026-11-20","subject":"s"}},"lines":{"00000000000000ff":"2026-11-20","a000000000000001":"2026-11-19","zz":"2026-11-19","0000000000000002":"soon"}}"#;
        let (slot, seq, state) = newest([
            Some(&format!(
                "pbem-sent 1 5 {} {:016x}\n{json}",
                json.len(),
                checksum(json.as_bytes())
            )),
            None,
        ])
        .unwrap();
        let c = state.unwrap();
        assert_eq!((slot, seq, c.address.as_str()), (0, 5, "a@x"));
        assert_eq!(c.threads["g"].last.as_deref(), Some("<p.1@x>"));
        // The lines that read; a hash or a day that does not is left out.
        let day = |d| day_of(d).unwrap();
        assert_eq!(
            c.lines.into_iter().collect::<Vec<_>>(),
            [
                (0xff, day("2026-11-20")),
                (0xa000_0000_0000_0001, day("2026-11-19"))
            ]
        );
    }

    #[test]
    fn a_whole_slot_whose_body_does_not_read_is_no_state() {
        for body in [
            "not json\n",
            "{\"address\":\"a@x\"}\n2026-11-20 00ff\n",
            "{\"address\":\"a@x\"}\n2026-13-20 00000000000000ff\n",
            "{\"address\":\"a@x\"}\n2026-11-20 00000000000000fg\n",
            "{\"address\":\"a@x\"}",
        ] {
            let slot = slot_text(1, body);
            assert_eq!(newest([Some(&slot), None]), Some((0, 1, None)), "{body}");
        }
        let fine = "{\"address\":\"a@x\"}\n";
        assert!(
            newest([Some(&slot_text(1, fine)), None])
                .unwrap()
                .2
                .is_some()
        );
    }
}
