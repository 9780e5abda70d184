//! Reading records: TOML syntax, keys, and the move list line by line.
//! Nothing here knows whether a move is legal (docs/src/contributing.md, "Layers").

use super::RecordError;
use super::match_info::{MatchInfo, RawMatch};
use super::verdict::Verdict;
use crate::game::{PerSide, Side};
use crate::rules::Rules;
use chrono::{DateTime, FixedOffset};
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// A record as read: the header and the move list, each part with its line.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The file name used in errors.
    pub file: String,
    pub format: Option<i64>,
    pub rules: Rules,
    pub id: Option<String>,
    pub created: Option<DateTime<FixedOffset>>,
    /// The side that moves first, when the record names it.
    pub first: Option<Side>,
    /// `result` and its line: `*`, a side name, or `draw`.
    pub result: Option<(Verdict, usize)>,
    /// Each side's player, "Name <address>", as the `[players]` table
    /// (keyed by side names) gives it: a side may have none (an offline
    /// record may have no table at all).
    pub players: PerSide<Option<String>>,
    /// The `[match]` table: its series or tournament, whether rated.
    pub match_info: MatchInfo,
    pub lines: Vec<MoveLine>,
}

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
}

impl Event {
    /// Every event, in no particular order.
    pub const ALL: [Event; 5] = [
        Event::Resign,
        Event::DrawOffered,
        Event::DrawAgreed,
        Event::DrawDeclined,
        Event::Timeout,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            Event::Resign => "resign",
            Event::DrawOffered => "draw offered",
            Event::DrawAgreed => "draw agreed",
            Event::DrawDeclined => "draw declined",
            Event::Timeout => "timeout",
        }
    }
    fn parse(text: &str) -> Option<Event> {
        let words: Vec<String> = text
            .split_whitespace()
            .map(|w| w.to_ascii_lowercase())
            .collect();
        let words: Vec<&str> = words.iter().map(|s| s.as_str()).collect();
        Some(match words.as_slice() {
            ["resign"] | ["resigns"] | ["resigned"] => Event::Resign,
            ["draw", "offered"] | ["offers", "draw"] => Event::DrawOffered,
            ["draw", "agreed"] => Event::DrawAgreed,
            ["draw", "declined"] => Event::DrawDeclined,
            ["timeout"] | ["time", "out"] | ["lost", "on", "time"] => Event::Timeout,
            _ => return None,
        })
    }
}

#[derive(Deserialize)]
struct Raw {
    format: Option<Spanned<i64>>,
    rules: Option<Spanned<String>>,
    id: Option<Spanned<String>>,
    created: Option<Spanned<toml::value::Datetime>>,
    first: Option<Spanned<String>>,
    result: Option<Spanned<String>>,
    players: Option<BTreeMap<Spanned<String>, String>>,
    #[serde(rename = "match")]
    match_info: Option<RawMatch>,
    moves: Option<Spanned<String>>,
    play: Option<RawPlay>,
}

#[derive(Deserialize)]
struct RawPlay {
    moves: Option<Spanned<String>>,
}

fn line_of(src: &str, offset: usize) -> usize {
    src.as_bytes()[..offset.min(src.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// "\"black\" or \"red\"": the side names of `rules`, quoted, for hints.
fn sides(rules: Rules) -> String {
    format!(
        "\"{}\" or \"{}\"",
        rules.side_name(Side::A),
        rules.side_name(Side::B)
    )
}

/// The `rules` key: required, and one of the games pbem knows.
fn read_rules(
    err: &impl Fn(usize, String) -> RecordError,
    src: &str,
    rules: Option<Spanned<String>>,
) -> Result<Rules, RecordError> {
    let rules = rules.ok_or_else(|| {
        err(
            1,
            format!(
                "`rules` is missing: say which game this is, e.g. rules = \"boom-and-zoom\" (one of {})",
                Rules::ALL.map(|r| r.slug()).join(", ")
            ),
        )
    })?;
    let line = line_of(src, rules.span().start);
    rules
        .get_ref()
        .parse()
        .map_err(|e: crate::rules::UnknownRules| err(line, e.to_string()))
}

/// The `format` key, if given: the one this pbem reads.
fn read_format(
    err: &impl Fn(usize, String) -> RecordError,
    src: &str,
    format: Option<&Spanned<i64>>,
) -> Result<(), RecordError> {
    match format {
        Some(f) if *f.get_ref() != 1 => Err(err(
            line_of(src, f.span().start),
            format!(
                "format {} is not known to this pbem (it reads format 1)",
                f.get_ref()
            ),
        )),
        _ => Ok(()),
    }
}

/// The `result` key, with its line.
fn read_result(
    err: &impl Fn(usize, String) -> RecordError,
    src: &str,
    rules: Rules,
    result: &Spanned<String>,
) -> Result<(Verdict, usize), RecordError> {
    let line = line_of(src, result.span().start);
    let verdict = Verdict::parse(rules, result.get_ref()).ok_or_else(|| {
        err(
            line,
            format!(
                "result = \"{}\" is not a result: write \"*\" (in play), \"draw\", {}",
                result.get_ref(),
                sides(rules)
            ),
        )
    })?;
    Ok((verdict, line))
}

/// The `created` key: a date and time with its offset.
fn read_created(
    err: &impl Fn(usize, String) -> RecordError,
    src: &str,
    created: &Spanned<toml::value::Datetime>,
) -> Result<DateTime<FixedOffset>, RecordError> {
    DateTime::parse_from_rfc3339(&created.get_ref().to_string()).map_err(|_| {
        err(
            line_of(src, created.span().start),
            format!(
                "created = {} needs a date, a time and an offset, like 2026-11-20T10:00:00Z",
                created.get_ref()
            ),
        )
    })
}

/// The `first` key: required where the players choose, and the rules'
/// side where they fix it.
fn read_first(
    err: &impl Fn(usize, String) -> RecordError,
    src: &str,
    rules: Rules,
    first: Option<&Spanned<String>>,
) -> Result<Option<Side>, RecordError> {
    let first = match first {
        None => {
            if rules.fixed_first().is_none() {
                return Err(err(
                    1,
                    format!(
                        "`first` is missing: in {} the players choose who moves first; add first = {}",
                        rules.name(),
                        sides(rules)
                    ),
                ));
            }
            None
        }
        Some(f) => {
            let line = line_of(src, f.span().start);
            let side = rules.side_named(f.get_ref()).ok_or_else(|| {
                err(
                    line,
                    format!(
                        "first = \"{}\" is not a side of {}: write {}",
                        f.get_ref(),
                        rules.name(),
                        sides(rules)
                    ),
                )
            })?;
            if let Some(fixed) = rules.fixed_first()
                && fixed != side
            {
                return Err(err(
                    line,
                    format!(
                        "first = \"{}\" contradicts the rules: in {} {} moves first ({})",
                        f.get_ref(),
                        rules.name(),
                        rules.side_name(fixed),
                        rules.cite(crate::rules::SETUP)
                    ),
                ));
            }
            Some(side)
        }
    };
    Ok(first)
}

/// The `[players]` table: keys are the rules' side names, in any case;
/// one side alone, or none, is a record too.
fn read_players(
    err: &impl Fn(usize, String) -> RecordError,
    src: &str,
    rules: Rules,
    raw: BTreeMap<Spanned<String>, String>,
) -> Result<PerSide<Option<String>>, RecordError> {
    // A key that names no side is refused, not dropped (fuzzing:
    // `Black = ...` or a misspelt side was lost at the next move).
    let mut players = PerSide::<Option<String>>::default();
    for (name, who) in raw {
        let line = line_of(src, name.span().start);
        let side = rules.side_named(name.get_ref()).ok_or_else(|| {
            err(
                line,
                format!(
                    "`{}` under [players] is not a side of {}: write {}",
                    name.get_ref(),
                    rules.name(),
                    sides(rules)
                ),
            )
        })?;
        if players[side].replace(who).is_some() {
            return Err(err(
                line,
                format!(
                    "two players for {} under [players]; keep one",
                    rules.side_name(side)
                ),
            ));
        }
    }
    Ok(players)
}

/// The move list (at the top level or under `[play]`, not both), one
/// [`MoveLine`] per line that holds a move or an event, with its line
/// number in the file.
fn read_moves(
    err: &impl Fn(usize, String) -> RecordError,
    src: &str,
    rules: Rules,
    top: Option<Spanned<String>>,
    under_play: Option<Spanned<String>>,
) -> Result<Vec<MoveLine>, RecordError> {
    let moves = match (top, under_play) {
        (Some(a), Some(b)) => {
            return Err(err(
                line_of(src, b.span().start),
                format!(
                    "two move lists: `moves` at line {} and under [play]; keep one",
                    line_of(src, a.span().start)
                ),
            ));
        }
        (Some(m), None) | (None, Some(m)) => Some(m),
        (None, None) => None,
    };
    let mut lines = Vec::new();
    if let Some(m) = moves {
        let start = m.span().start;
        let raw_text = &src[start..m.span().end.min(src.len())];
        let mut first_line = line_of(src, start);
        let multi = raw_text.starts_with("\"\"\"") || raw_text.starts_with("'''");
        if multi {
            let after = &raw_text[3..];
            if after.starts_with('\n') || after.starts_with("\r\n") {
                first_line += 1;
            }
        }
        for (i, text) in m.get_ref().lines().enumerate() {
            let line = if multi { first_line + i } else { first_line };
            if let Some(ml) = parse_line(rules, text, line).map_err(|e| err(line, e.to_string()))? {
                lines.push(ml);
            }
        }
    }
    Ok(lines)
}

impl Record {
    /// Reads a record from its text; `file` names it in errors.
    ///
    /// # Errors
    /// The first syntax error, with its line: bad TOML, a missing or unknown
    /// `rules`, a bad `first` or `result`, a move line that cannot be read.
    pub fn parse(file: &str, src: &str) -> Result<Record, RecordError> {
        let err = |line: usize, message: String| RecordError {
            file: file.to_string(),
            line,
            message,
        };
        let raw: Raw = toml::from_str(src).map_err(|e| {
            let line = e.span().map(|s| line_of(src, s.start)).unwrap_or(1);
            err(line, format!("not a valid record: {}", e.message().trim()))
        })?;
        let rules = read_rules(&err, src, raw.rules)?;
        read_format(&err, src, raw.format.as_ref())?;
        let first = read_first(&err, src, rules, raw.first.as_ref())?;
        let result = raw
            .result
            .as_ref()
            .map(|r| read_result(&err, src, rules, r))
            .transpose()?;
        let created = raw
            .created
            .as_ref()
            .map(|c| read_created(&err, src, c))
            .transpose()?;
        let players = read_players(&err, src, rules, raw.players.unwrap_or_default())?;
        let match_info = match raw.match_info.map(RawMatch::read) {
            None => MatchInfo::default(),
            Some(Ok(m)) => m,
            Some(Err((at, message))) => return Err(err(line_of(src, at), message)),
        };
        let lines = read_moves(&err, src, rules, raw.moves, raw.play.and_then(|p| p.moves))?;
        Ok(Record {
            file: file.to_string(),
            format: raw.format.map(|f| *f.get_ref()),
            rules,
            id: raw.id.map(|i| i.into_inner()),
            created,
            first,
            result,
            players,
            match_info,
            lines,
        })
    }

    /// A bare move list (`pbem validate --rules GAME FILE`): one move per
    /// line, in the same line syntax as a record's move list.
    ///
    /// # Errors
    /// A line that cannot be read, or a missing or wrong first side.
    pub fn from_move_list(
        file: &str,
        rules: Rules,
        first: Option<Side>,
        src: &str,
    ) -> Result<Record, RecordError> {
        let err = |line: usize, message: String| RecordError {
            file: file.to_string(),
            line,
            message,
        };
        let first = match (first, rules.fixed_first()) {
            (None, None) => {
                return Err(err(
                    1,
                    format!(
                        "{} needs the first side: add --first {} or --first {}",
                        rules.name(),
                        rules.side_name(Side::A),
                        rules.side_name(Side::B)
                    ),
                ));
            }
            (Some(f), Some(fixed)) if f != fixed => {
                return Err(err(
                    1,
                    format!(
                        "in {} {} moves first ({})",
                        rules.name(),
                        rules.side_name(fixed),
                        rules.cite(crate::rules::SETUP)
                    ),
                ));
            }
            (f, fixed) => f.or(fixed),
        };
        let mut lines = Vec::new();
        for (i, text) in src.lines().enumerate() {
            if let Some(ml) =
                parse_line(rules, text, i + 1).map_err(|e| err(i + 1, e.to_string()))?
            {
                lines.push(ml);
            }
        }
        Ok(Record {
            file: file.to_string(),
            format: None,
            rules,
            id: None,
            created: None,
            first,
            result: None,
            players: PerSide::default(),
            match_info: MatchInfo::default(),
            lines,
        })
    }

    /// The players ("Name <address>") with their sides, in the
    /// alphabetical order of the sides' names: the order of the
    /// `[players]` table when it was a map keyed by side names, which
    /// what pbem words from it keeps (the `started` mail, `pbem list`).
    pub fn players_by_name(&self) -> impl Iterator<Item = (Side, &String)> {
        Side::by_name(self.rules.info().sides)
            .into_iter()
            .filter_map(|side| Some((side, self.players[side].as_ref()?)))
    }

    /// The side of the player `pred` accepts, the sides tried in the
    /// order of their names (as [`Record::players_by_name`]): one player
    /// on both sides (an admin may name one address twice) is found on
    /// the same side as when players were looked up in a map.
    pub fn side_of_player(&self, mut pred: impl FnMut(&str) -> bool) -> Option<Side> {
        self.players_by_name()
            .find(|(_, p)| pred(p))
            .map(|(side, _)| side)
    }

    /// What the record's `result` says; a record without one is in play
    /// (the writer writes `"*"` for it).
    pub fn verdict(&self) -> Verdict {
        self.result.map_or(Verdict::Unfinished, |(v, _)| v)
    }

    /// The side that moves first: the record's, else the rules'.
    pub fn first_side(&self) -> Side {
        self.first.or(self.rules.fixed_first()).unwrap_or(Side::A)
    }

    /// The moves of the record, in order, as written (its events, such as
    /// `resign`, left out).
    pub fn moves(&self) -> Vec<String> {
        self.lines
            .iter()
            .filter_map(|l| match &l.entry {
                Entry::Move(m) => Some(m.clone()),
                Entry::Event(_) => None,
            })
            .collect()
    }
}

/// Strips a `#` comment, but not a `#` inside a `<message-id>`.
fn strip_comment(text: &str) -> &str {
    let mut in_id = false;
    for (i, c) in text.char_indices() {
        match c {
            '<' => in_id = true,
            '>' => in_id = false,
            '#' if !in_id => return &text[..i],
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
    let text = strip_comment(text);
    let mut tokens: Vec<&str> = text.split_whitespace().collect();
    if tokens.is_empty() {
        return Ok(None);
    }
    let mut number = None;
    if let Some(n) = tokens[0].strip_suffix('.')
        && !n.is_empty()
        && n.bytes().all(|b| b.is_ascii_digit())
    {
        number = Some(
            n.parse::<u32>()
                .map_err(|_| MoveLineError::NumberTooLarge(tokens[0].to_string()))?,
        );
        tokens.remove(0);
    }
    let mut side = None;
    if let Some(t) = tokens.first()
        && let Some(s) = rules.side_named(t)
    {
        side = Some(s);
        tokens.remove(0);
    }
    let mut time = None;
    let mut message_id = None;
    while let Some(last) = tokens.last() {
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
        tokens.pop();
    }
    if tokens.is_empty() {
        return Err(match (number, side) {
            (Some(n), _) => MoveLineError::NumberWithoutMove(n),
            (None, Some(s)) => MoveLineError::SideWithoutMove(rules.side_name(s).to_string()),
            (None, None) => MoveLineError::NoMove,
        });
    }
    let joined = tokens.join(" ");
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

/// `2026-11-20T10:02:11Z`: a date, `T`, a time. Digits-and-dashes only
/// would also match nothing else a move list holds.
fn looks_like_time(t: &str) -> bool {
    let b = t.as_bytes();
    b.len() >= 20
        && b[..4].iter().all(|c| c.is_ascii_digit())
        && b[4] == b'-'
        && (b[10] == b'T' || b[10] == b't')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimal_form() {
        let r = Record::parse(
            "bz.toml",
            "rules = \"boom-and-zoom\"\nfirst = \"red\"\nmoves = \"\"\"\n58-50\n\n2-10 # a comment\n\"\"\"\n",
        )
        .unwrap();
        assert_eq!(r.rules, Rules::BoomAndZoom);
        assert_eq!(r.first, Some(Side::B));
        assert_eq!(r.lines.len(), 2);
        assert_eq!(r.lines[0].line, 4);
        assert_eq!(r.lines[1].line, 6);
        assert_eq!(r.lines[1].entry, Entry::Move("2-10".into()));
    }

    #[test]
    fn full_line() {
        let l = parse_line(
            Rules::BoomAndZoom,
            "12. red    58-50   2026-11-20T10:02:11Z  <CAF1#x@mail.example.org> # note",
            9,
        )
        .unwrap()
        .unwrap();
        assert_eq!(l.number, Some(12));
        assert_eq!(l.side, Some(Side::B));
        assert_eq!(l.entry, Entry::Move("58-50".into()));
        assert!(l.time.is_some());
        assert_eq!(l.message_id.as_deref(), Some("<CAF1#x@mail.example.org>"));
        let e = parse_line(Rules::BoomAndZoom, "3. black draw offered", 1)
            .unwrap()
            .unwrap();
        assert_eq!(e.entry, Entry::Event(Event::DrawOffered));
        let g = parse_line(Rules::GuerrillaCheckers, "1. guerrilla 27/36, 28/37", 1)
            .unwrap()
            .unwrap();
        assert_eq!(g.entry, Entry::Move("27/36, 28/37".into()));
    }

    #[test]
    fn players_are_sides() {
        let r = Record::parse(
            "x.toml",
            "rules = \"mad\"\nfirst = \"red\"\n[players]\nBlack = \"A <a@x.org>\"\nRED = \"B <b@x.org>\"\n",
        )
        .unwrap();
        assert_eq!(
            r.players,
            PerSide::new(Some("A <a@x.org>".into()), Some("B <b@x.org>".into())),
            "keyed by the sides, in any case"
        );
        let e = Record::parse(
            "x.toml",
            "rules = \"mad\"\nfirst = \"red\"\n[players]\nblack = \"A <a@x.org>\"\nblak = \"B <b@x.org>\"\n",
        )
        .unwrap_err();
        assert_eq!(e.line, 5, "{e}");
        assert!(
            e.message
                .contains("`blak` under [players] is not a side of M.A.D."),
            "{e}"
        );
        let e = Record::parse(
            "x.toml",
            "rules = \"mad\"\nfirst = \"red\"\n[players]\nblack = \"A <a@x.org>\"\nBlack = \"B <b@x.org>\"\n",
        )
        .unwrap_err();
        assert!(e.message.contains("two players for black"), "{e}");
    }

    /// Lists of players keep the order of the sides' names (the order of
    /// the map they were before): coin before guerrilla, though the
    /// guerrilla is side A.
    #[test]
    fn players_listed_in_the_order_of_side_names() {
        let r = Record::parse(
            "g.toml",
            "rules = \"guerrilla-checkers\"\n[players]\nguerrilla = \"A <a@x.org>\"\ncoin = \"A <a@x.org>\"\n",
        )
        .unwrap();
        let sides: Vec<Side> = r.players_by_name().map(|(s, _)| s).collect();
        assert_eq!(sides, [Side::B, Side::A]);
        assert_eq!(r.side_of_player(|p| p.contains("a@x")), Some(Side::B));
        assert_eq!(r.side_of_player(|p| p.contains("b@x")), None);
    }

    #[test]
    fn errors_name_the_line() {
        let e = Record::parse("x.toml", "rules = \"chess\"\n").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.message.contains("unknown game `chess`"), "{e}");
        let e = Record::parse("x.toml", "rules = \"mad\"\nmoves = \"\"\"\n12-20\n\"\"\"\n")
            .unwrap_err();
        assert!(e.message.contains("`first` is missing"), "{e}");
        let e = Record::parse("x.toml", "rules = \"mad-rooks\"\nfirst = \"blue\"\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(
            e.message
                .ends_with("red moves first (see `pbem rules mad-rooks`, section Setup)"),
            "{e}"
        );
        let e = Record::from_move_list("-", Rules::MadRooks, Some(Side::B), "").unwrap_err();
        assert!(
            e.message
                .ends_with("red moves first (see `pbem rules mad-rooks`, section Setup)"),
            "{e}"
        );
        let e = Record::parse(
            "x.toml",
            "rules = \"mad\"\nfirst = \"red\"\nresult = \"won\"\n",
        )
        .unwrap_err();
        assert_eq!(
            (e.line, e.message.contains("not a result")),
            (3, true),
            "{e}"
        );
        let e = Record::parse(
            "x.toml",
            "rules = \"mad\"\nfirst = \"red\"\nmoves = \"\"\"\n12.\n\"\"\"\n",
        )
        .unwrap_err();
        assert_eq!(e.line, 4, "{e}");
        let e = Record::parse("x.toml", "rules = \"mad\"\n\nfirst = \n").unwrap_err();
        assert_eq!(e.line, 3, "{e}");
    }
}
