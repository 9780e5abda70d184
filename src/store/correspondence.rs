//! What pbem lately sent one address: the threads of its games with that
//! player, and the lines of its recent mails (issue 12).
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

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How long a line pbem sent is remembered: a reply usually comes within
/// days; a player may answer a weeks-old mail after a vacation.
pub const KEEP_DAYS: i64 = 60;
/// The most lines remembered for one address (a few dozen mails' worth).
pub const MAX_LINES: usize = 4000;
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
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Correspondence {
    pub address: String,
    /// By game id.
    #[serde(default)]
    pub threads: BTreeMap<String, Thread>,
    /// The hash of each remembered line (hex) and the day it was last
    /// sent (`YYYY-MM-DD`).
    #[serde(default)]
    pub lines: BTreeMap<String, String>,
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
    let words: Vec<String> = line.split_whitespace().map(str::to_lowercase).collect();
    let joined = words.join(" ");
    let joined = joined.trim_end_matches(['.', '!', ',', ':', ';']);
    let alnum = joined.chars().filter(|c| c.is_alphanumeric()).count();
    if joined.chars().count() < 8 || alnum < 4 {
        return None;
    }
    Some(super::stable_hash(joined.as_bytes()))
}

impl Correspondence {
    pub fn new(address: &str) -> Correspondence {
        Correspondence {
            address: address.to_string(),
            ..Correspondence::default()
        }
    }

    /// Whether pbem lately sent this line (see [`line_key`]).
    pub fn knows(&self, line: &str) -> bool {
        line_key(line).is_some_and(|k| self.lines.contains_key(&format!("{k:016x}")))
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
        for line in text.lines() {
            if let Some(k) = line_key(line) {
                self.lines.insert(format!("{k:016x}"), today.to_string());
            }
        }
        self.prune(today);
    }

    /// Drops what is past [`KEEP_DAYS`] or over the bounds.
    fn prune(&mut self, today: &str) {
        let cutoff = chrono::NaiveDate::parse_from_str(today, "%Y-%m-%d")
            .ok()
            .and_then(|d| d.checked_sub_signed(chrono::Duration::days(KEEP_DAYS)))
            .map(|d| d.format("%Y-%m-%d").to_string())
            .unwrap_or_default();
        // Dates in ISO form compare as text.
        self.lines.retain(|_, day| *day >= cutoff);
        if self.lines.len() > MAX_LINES {
            let mut days: Vec<&String> = self.lines.values().collect();
            days.sort();
            let keep_from = days[self.lines.len() - MAX_LINES].clone();
            self.lines.retain(|_, day| *day >= keep_from);
            // Lines of one day tie: drop by hash, a fair coin.
            while self.lines.len() > MAX_LINES {
                let first = self.lines.keys().next().cloned().unwrap_or_default();
                self.lines.remove(&first);
            }
        }
        self.threads.retain(|_, t| t.used >= cutoff);
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
        assert_eq!(c.lines.len(), MAX_LINES);
    }
}
