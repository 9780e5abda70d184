//! One line of a record's move list: `[12.] [side] move [time]
//! [<message-id>]`, or an event (`resign`, `draw offered`, `takeback
//! asked`...), read without knowing whether the move is legal.

use crate::game::Side;
use crate::rules::Rules;
use chrono::{DateTime, FixedOffset};

/// One non-blank line of the move list.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveLine {
    /// Line number in the file, from 1.
    pub line: usize,
    /// The optional `12.`.
    pub number: Option<u32>,
    /// The optional side name (which must be the side to move).
    pub side: Option<Side>,
    pub entry: Entry,
    pub time: Option<DateTime<FixedOffset>>,
    pub message_id: Option<String>,
}

/// What a line records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A move as written (resolved only by replay).
    Move(String),
    Event(Event),
}

/// Game events that are lines of the move list (docs/src/formats/record.md,
/// "The full form").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    Resign,
    DrawOffered,
    DrawAgreed,
    DrawDeclined,
    Timeout,
    /// The side that made the last move asks to take it back.
    TakebackAsked,
    /// The opponent agrees: the last move is taken back.
    TakebackAccepted,
    /// The opponent says no: the move stands.
    TakebackDeclined,
}

impl Event {
    /// Every event, in no particular order.
    pub const ALL: [Event; 8] = [
        Event::Resign,
        Event::DrawOffered,
        Event::DrawAgreed,
        Event::DrawDeclined,
        Event::Timeout,
        Event::TakebackAsked,
        Event::TakebackAccepted,
        Event::TakebackDeclined,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            Event::Resign => "resign",
            Event::DrawOffered => "draw offered",
            Event::DrawAgreed => "draw agreed",
            Event::DrawDeclined => "draw declined",
            Event::Timeout => "timeout",
            Event::TakebackAsked => "takeback asked",
            Event::TakebackAccepted => "takeback accepted",
            Event::TakebackDeclined => "takeback declined",
        }
    }
    /// The event `text` writes, in any case and spacing; `None` for a
    /// move. Compared word by word in place: every move line asks.
    fn parse(text: &str) -> Option<Event> {
        const FORMS: [(&[&str], Event); 16] = [
            (&["resign"], Event::Resign),
            (&["resigns"], Event::Resign),
            (&["resigned"], Event::Resign),
            (&["draw", "offered"], Event::DrawOffered),
            (&["offers", "draw"], Event::DrawOffered),
            (&["draw", "agreed"], Event::DrawAgreed),
            (&["draw", "declined"], Event::DrawDeclined),
            (&["timeout"], Event::Timeout),
            (&["time", "out"], Event::Timeout),
            (&["lost", "on", "time"], Event::Timeout),
            (&["takeback", "asked"], Event::TakebackAsked),
            (&["takeback", "requested"], Event::TakebackAsked),
            (&["asks", "takeback"], Event::TakebackAsked),
            (&["takeback", "accepted"], Event::TakebackAccepted),
            (&["takeback", "agreed"], Event::TakebackAccepted),
            (&["takeback", "declined"], Event::TakebackDeclined),
        ];
        let written = |form: &[&str]| {
            let mut words = text.split_whitespace();
            form.iter()
                .all(|f| words.next().is_some_and(|w| w.eq_ignore_ascii_case(f)))
                && words.next().is_none()
        };
        FORMS
            .iter()
            .find(|(form, _)| written(form))
            .map(|&(_, event)| event)
    }
}

/// How many moves stand after `lines`: the moves less those an accepted
/// takeback took back (docs/src/formats/record.md, "Takebacks"). Read
/// without the rules, for what counts the moves of a record it does not
/// replay (the writer's move numbers, a mail handled again).
pub fn plies(lines: &[MoveLine]) -> usize {
    lines.iter().fold(0, |n, l| match l.entry {
        Entry::Move(_) => n + 1,
        Entry::Event(Event::TakebackAccepted) => n.saturating_sub(1),
        Entry::Event(_) => n,
    })
}

/// Strips a `#` comment, but not a `#` inside a `<message-id>`.
fn strip_comment(text: &str) -> &str {
    // By bytes: `<`, `>` and `#` are never part of a longer character.
    let mut in_id = false;
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'<' => in_id = true,
            b'>' => in_id = false,
            b'#' if !in_id => return &text[..i],
            _ => {}
        }
    }
    text
}

/// What is wrong with one line of a move list, quoting it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveLineError {
    #[error("move number `{0}` is too large")]
    NumberTooLarge(String),
    #[error("`{0}` is not a message id: write it like <id@host>")]
    BadMessageId(String),
    #[error("two message ids on one line")]
    TwoMessageIds,
    #[error("`{0}` is not a valid time: write it like 2026-11-20T10:02:11Z")]
    BadTime(String),
    #[error("two times on one line")]
    TwoTimes,
    #[error("move {0}. has no move")]
    NumberWithoutMove(u32),
    #[error("`{0}` has no move")]
    SideWithoutMove(String),
    #[error("the line has no move")]
    NoMove,
}

/// Reads one line of a move list: `[12.] [side] move [time] [<message-id>]`.
/// `Ok(None)` for a blank or comment-only line.
///
/// # Errors
/// [`MoveLineError`] for a line that is none of these.
pub fn parse_line(
    rules: Rules,
    text: &str,
    line: usize,
) -> Result<Option<MoveLine>, MoveLineError> {
    // The line's words, taken from its two ends as slices of it: a
    // record of hundreds of moves reads each line without a list.
    let mut rest = strip_comment(text).trim();
    if rest.is_empty() {
        return Ok(None);
    }
    let mut number = None;
    let (first, after) = first_word(rest);
    if let Some(n) = first.strip_suffix('.')
        && !n.is_empty()
        && n.bytes().all(|b| b.is_ascii_digit())
    {
        number = Some(
            n.parse::<u32>()
                .map_err(|_| MoveLineError::NumberTooLarge(first.to_string()))?,
        );
        rest = after;
    }
    let mut side = None;
    let (first, after) = first_word(rest);
    if let Some(s) = rules.side_named(first) {
        side = Some(s);
        rest = after;
    }
    let mut time = None;
    let mut message_id = None;
    while !rest.is_empty() {
        let (before, last) = last_word(rest);
        if last.starts_with('<') {
            if !last.ends_with('>') || last.len() < 3 {
                return Err(MoveLineError::BadMessageId(last.to_string()));
            }
            if message_id.is_some() {
                return Err(MoveLineError::TwoMessageIds);
            }
            message_id = Some(last.to_string());
        } else if looks_like_time(last) {
            let t = DateTime::parse_from_rfc3339(last)
                .map_err(|_| MoveLineError::BadTime(last.to_string()))?;
            if time.is_some() {
                return Err(MoveLineError::TwoTimes);
            }
            time = Some(t);
        } else {
            break;
        }
        rest = before;
    }
    if rest.is_empty() {
        return Err(match (number, side) {
            (Some(n), _) => MoveLineError::NumberWithoutMove(n),
            (None, Some(s)) => MoveLineError::SideWithoutMove(rules.side_name(s).to_string()),
            (None, None) => MoveLineError::NoMove,
        });
    }
    // The move's words joined by one space, as a list of words would.
    let joined = if rest.contains(char::is_whitespace) {
        rest.split_whitespace().collect::<Vec<_>>().join(" ")
    } else {
        rest.to_string()
    };
    let entry = match Event::parse(&joined) {
        Some(e) => Entry::Event(e),
        None => Entry::Move(joined),
    };
    Ok(Some(MoveLine {
        line,
        number,
        side,
        entry,
        time,
        message_id,
    }))
}

/// The first word of `text` (trimmed) and what follows it, trimmed; an
/// empty word for an empty text.
fn first_word(text: &str) -> (&str, &str) {
    match text.split_once(char::is_whitespace) {
        Some((word, rest)) => (word, rest.trim_start()),
        None => (text, ""),
    }
}

/// What precedes the last word of `text` (trimmed), trimmed, and that
/// word.
fn last_word(text: &str) -> (&str, &str) {
    match text.rsplit_once(char::is_whitespace) {
        Some((rest, word)) => (rest.trim_end(), word),
        None => ("", text),
    }
}

/// `2026-11-20T10:02:11Z`: a date, `T`, a time. Digits-and-dashes only
/// would also match nothing else a move list holds.
fn looks_like_time(t: &str) -> bool {
    let b = t.as_bytes();
    b.len() >= 20
        && b[..4].iter().all(|c| c.is_ascii_digit())
        && b[4] == b'-'
        && (b[10] == b'T' || b[10] == b't')
}
