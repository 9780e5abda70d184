//! Writing records in the full form of docs/src/formats/record.md, to text: fixed key
//! order, moves last so that appending a move appends a line. Putting the
//! text on disk atomically is the server's (`pbem::record::write`).

use super::{Entry, Event, MoveLine, Record};
use crate::rules::Rules;
use std::fmt::Write as _;

/// A TOML basic string, quoted and escaped.
fn quoted(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// Escapes text for a `"""` multi-line basic string: backslashes, quotes
/// and control characters (a hostile message id must not end the string).
fn escape_multiline(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// The width of the move column: the longest draw event (`draw
/// declined`), so that the times and Message-IDs of the draw events line
/// up with those of the moves. A fixed width, not the longest entry of
/// the record, so that a new line never changes the old ones (one move,
/// one line of `git diff`); a capture chain longer than this, and the
/// takeback events (`takeback accepted`), rarer and added after records
/// were written in this width, push their own line's time out.
pub const MOVE_COLUMN: usize = Event::DrawDeclined.as_str().len();

/// `record` without the times and Message-IDs of its lines, and its
/// moves without their sides (the sides take turns; an event keeps its
/// side): every move and event, which is all that replays. It is the copy
/// a mail carries (the data folder, the archive and the git history keep
/// the full one), so that the mail of a long game stays small.
pub fn moves_only(record: &Record) -> String {
    let mut bare = record.clone();
    for l in &mut bare.lines {
        l.time = None;
        l.message_id = None;
        if matches!(l.entry, Entry::Move(_)) {
            l.side = None;
        }
    }
    to_string(&bare)
}

/// The full form of `record`. Move lines are written as given (the caller
/// stores canonical moves); numbers are the ply numbers, a move after an
/// accepted takeback numbered as the move it replaces
/// (docs/src/formats/record.md, "Takebacks").
pub fn to_string(record: &Record) -> String {
    let mut s = heading(record);
    write_keys(&mut s, record);
    s.push_str(&record.match_info.to_toml());
    write_moves(&mut s, record);
    s
}

/// The comment line a record opens with: its game, its id, and how to
/// check the file.
fn heading(record: &Record) -> String {
    let name = record.rules.name();
    // The id goes into a comment line: not one that holds a line break,
    // which would end the comment and break the file (fuzzing).
    let id = record
        .id
        .as_deref()
        .filter(|id| !id.chars().any(char::is_control))
        .unwrap_or("");
    if id.is_empty() {
        format!("# {name}. Check it with: pbem validate this file\n")
    } else {
        format!("# {name} — game {id}. Check it with: pbem validate {id}.toml\n")
    }
}

/// The keys before the match and the moves: the format, the game, its id
/// and creation, who moves first, the result and the `[players]`.
fn write_keys(s: &mut String, record: &Record) {
    let rules = record.rules;
    let _ = writeln!(s, "format = 1");
    let _ = writeln!(s, "rules = {}", quoted(rules.slug()));
    if let Some(id) = &record.id {
        let _ = writeln!(s, "id = {}", quoted(id));
    }
    if let Some(c) = &record.created {
        let _ = writeln!(
            s,
            "created = {}",
            c.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
        );
    }
    let first = record.first_side();
    let _ = writeln!(s, "first = {}", quoted(rules.side_name(first)));
    let result = record.verdict().word(rules);
    let _ = writeln!(
        s,
        "result = {:<24}# \"*\" while in play, else a side name or \"draw\"",
        quoted(result)
    );
    if !record.players.is_empty() {
        let _ = writeln!(s, "\n[players]");
        for (side, p) in record.players.given() {
            let _ = writeln!(s, "{} = {}", rules.side_name(side), quoted(p));
        }
    }
}

/// The `[play]` table: the move list, one line a move or event, in
/// columns.
fn write_moves(s: &mut String, record: &Record) {
    let rules = record.rules;
    let _ = writeln!(s, "\n[play]\nmoves = \"\"\"");
    let width = rules
        .info()
        .sides
        .iter()
        .map(|n| n.len())
        .max()
        .unwrap_or(5);
    let mut ply: u32 = 0;
    for l in &record.lines {
        let num = match &l.entry {
            Entry::Move(_) => {
                ply += 1;
                format!("{ply}.")
            }
            Entry::Event(e) => {
                if *e == Event::TakebackAccepted {
                    ply = ply.saturating_sub(1);
                }
                String::new()
            }
        };
        let line = move_line(rules, width, &num, l);
        let _ = writeln!(s, "{}", escape_multiline(line.trim_end()));
    }
    s.push_str("\"\"\"\n");
}

/// One line of the move list: its number `num` (a move's), its side in a
/// column `width` wide, the move or event, its time and Message-ID.
fn move_line(rules: Rules, width: usize, num: &str, l: &MoveLine) -> String {
    let text = match &l.entry {
        Entry::Move(m) => m.as_str(),
        Entry::Event(e) => e.as_str(),
    };
    let mut line = format!("{num:<4} ");
    if let Some(side) = l.side {
        let _ = write!(line, "{:<width$}  ", rules.side_name(side));
    }
    let _ = write!(line, "{text:<MOVE_COLUMN$}");
    if let Some(t) = &l.time {
        let _ = write!(
            line,
            "  {}",
            t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
        );
    }
    if let Some(id) = &l.message_id {
        let _ = write!(line, "  {id}");
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{PerSide, Side};
    use crate::rules::Rules;

    /// The players of a record go through the writer and the reader
    /// unchanged, keyed by side names in the order of the sides (side A
    /// first, not the names' alphabetical order), both, one or none.
    #[test]
    fn players_round_trip_by_side() {
        let mut rec = Record::parse(
            "g.toml",
            "rules = \"guerrilla-checkers\"\n[players]\nCOIN = \"Bob <b@x.org>\"\nguerrilla = \"Al <a@x.org>\"\n",
        )
        .unwrap();
        let both = PerSide::new(
            Some("Al <a@x.org>".to_string()),
            Some("Bob <b@x.org>".into()),
        );
        assert_eq!(rec.players, both);
        assert_eq!(Rules::GuerrillaCheckers.side_name(Side::A), "guerrilla");
        let text = to_string(&rec);
        assert!(
            text.contains("\n[players]\nguerrilla = \"Al <a@x.org>\"\ncoin = \"Bob <b@x.org>\"\n"),
            "{text}"
        );
        assert_eq!(Record::parse("g.toml", &text).unwrap().players, both);
        rec.players[Side::A] = None;
        let text = to_string(&rec);
        assert!(
            text.contains("\n[players]\ncoin = \"Bob <b@x.org>\"\n\n[play]"),
            "{text}"
        );
        assert_eq!(Record::parse("g.toml", &text).unwrap().players, rec.players);
        rec.players[Side::B] = None;
        let text = to_string(&rec);
        assert!(!text.contains("[players]"), "{text}");
        assert!(Record::parse("g.toml", &text).unwrap().players.is_empty());
    }

    #[test]
    fn an_id_with_a_line_break_does_not_break_the_file() {
        let src = "rules = \"mad\"\nfirst = \"red\"\nid = \"\"\"x\nrules = 1\"\"\"\n";
        let rec = Record::parse("x.toml", src).unwrap();
        let text = to_string(&rec);
        let again = Record::parse("x.toml", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(again.id, rec.id);
        assert!(!text.lines().next().unwrap().contains('x'), "{text}");
    }

    #[test]
    fn the_moves_only_copy_replays_as_the_full_record() {
        let src = "rules = \"boom-and-zoom\"\nfirst = \"black\"\nresult = \"red\"\n[play]\nmoves = \"\"\"\n\
                   1. black 6-13 2026-11-19T09:17:00Z <bz1.1@example.org>\n\
                   2. red 61-34 2026-11-19T11:33:00Z <bz1.2@example.org>\n\
                   black resign 2026-11-19T12:00:00Z <bz1.3@example.org>\n\"\"\"\n";
        let rec = Record::parse("g.toml", src).unwrap();
        let text = moves_only(&rec);
        assert!(
            !text.contains("2026-11-19") && !text.contains("example.org") && !text.contains("red "),
            "{text}"
        );
        let again = Record::parse("g.toml", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let entries = |r: &Record| r.lines.iter().map(|l| l.entry.clone()).collect::<Vec<_>>();
        assert_eq!(entries(&again), entries(&rec));
        assert_eq!(
            again.lines[2].side, rec.lines[2].side,
            "the resignation's side"
        );
        assert_eq!(again.result.map(|r| r.0), rec.result.map(|r| r.0));
        let ended = |r: &Record| {
            crate::record::replay::replay::<crate::games::boom_and_zoom::BoomAndZoom>(r)
                .map(|r| r.end.map(|e| e.outcome))
                .map_err(|e| e.to_string())
        };
        assert_eq!(ended(&again), ended(&rec));
        assert!(ended(&rec).unwrap().is_some());
    }
}
