//! Reading records: TOML syntax, keys, and the move list line by line.
//! Nothing here knows whether a move is legal (docs/src/contributing.md, "Layers").

use super::RecordError;
pub use super::line::{Entry, Event, MoveLine, MoveLineError, parse_line, plies};
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
    /// `resign`, left out; a move taken back by agreement kept, as its
    /// line is: replay gives the moves that stand).
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
