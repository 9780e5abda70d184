//! The commit message of a batch: each game's new lines, read from its
//! record before (HEAD's) and after (the one committed), so that it is
//! the same whether the batch is committed at once or caught up after a
//! crash.

use crate::record::{Entry, MoveLine, Record};

/// What changed in the record of game `id`, one line each:
/// `bz-7k2q: 12. red 22-15`, `bz-7k2q: new game, Alice vs Bob`,
/// `bz-7k2q: result = "red"`. `old`/`new`: the record before and after
/// (`None`: there was, or is, none).
pub fn game_lines(id: &str, old: Option<&str>, new: Option<&str>) -> Vec<String> {
    let file = format!("{id}.toml");
    let Some(new) = new else {
        return vec![format!("{id}: record removed")];
    };
    let Ok(after) = Record::parse(&file, new) else {
        return vec![format!(
            "{id}: record changed (it does not read as a record)"
        )];
    };
    let before = old.map(|t| Record::parse(&file, t));
    let mut out = Vec::new();
    let kept = match &before {
        None => {
            out.push(format!("{id}: new game, {}", players(&after)));
            0
        }
        Some(Ok(before)) => {
            let kept = common_prefix(&before.lines, &after.lines);
            if kept < before.lines.len() {
                out.push(format!(
                    "{id}: {} line{} of the move list replaced",
                    before.lines.len() - kept,
                    if before.lines.len() - kept == 1 {
                        ""
                    } else {
                        "s"
                    }
                ));
            }
            kept
        }
        // What does not read cannot say which lines are new: all are
        // listed.
        Some(Err(_)) => {
            out.push(format!("{id}: record mended"));
            0
        }
    };
    out.extend(
        after.lines[kept..]
            .iter()
            .map(|l| format!("{id}: {}", line(&after, l))),
    );
    let result = |r: &Record| r.result.map(|(v, _)| v);
    let old_result = before
        .as_ref()
        .and_then(|b| b.as_ref().ok())
        .and_then(result);
    if let Some(v) = result(&after).filter(|v| v.is_over() && Some(*v) != old_result) {
        out.push(format!("{id}: result = \"{}\"", v.word(after.rules)));
    }
    if out.is_empty() {
        out.push(format!("{id}: record changed"));
    }
    out
}

/// How many lines both lists start with, by what they say (not where).
fn common_prefix(a: &[MoveLine], b: &[MoveLine]) -> usize {
    let same = |x: &MoveLine, y: &MoveLine| {
        (x.number, x.side, &x.entry, x.time, &x.message_id)
            == (y.number, y.side, &y.entry, y.time, &y.message_id)
    };
    a.iter().zip(b).take_while(|(x, y)| same(x, y)).count()
}

/// `12. red 22-15`, `13. black resign`: the line's number, side and entry
/// (its time and Message-ID are in the record).
fn line(rec: &Record, l: &MoveLine) -> String {
    let mut words = Vec::new();
    if let Some(n) = l.number {
        words.push(format!("{n}."));
    }
    if let Some(side) = l.side {
        words.push(rec.rules.side_name(side).to_string());
    }
    words.push(match &l.entry {
        Entry::Move(m) => m.clone(),
        Entry::Event(e) => e.as_str().to_string(),
    });
    words.join(" ")
}

/// `Alice vs Bob`: each side's player by the name they go by (their
/// address when they gave none), in the order of the sides.
fn players(rec: &Record) -> String {
    let names: Vec<String> = crate::game::Side::BOTH
        .iter()
        .map(|&side| match &rec.players[side] {
            Some(p) => name_of(p),
            None => format!("({})", rec.rules.side_name(side)),
        })
        .collect();
    names.join(" vs ")
}

/// The name of `Name <address>`, or the address alone.
fn name_of(player: &str) -> String {
    let p = player.trim();
    match p.split_once('<') {
        Some((name, _)) if !name.trim().is_empty() => name.trim().trim_matches('"').to_string(),
        Some((_, rest)) => rest.trim_end_matches('>').trim().to_string(),
        None => p.to_string(),
    }
}

/// The message of a commit of `lines` (each game's, in order): the first
/// line as its subject, with how many more there are, then all of them.
pub fn commit_message(lines: &[String]) -> String {
    let Some(first) = lines.first() else {
        return "records changed\n".into();
    };
    let mut m = first.clone();
    if lines.len() > 1 {
        m.push_str(&format!(" (and {} more)", lines.len() - 1));
    }
    m.push_str("\n\n");
    for l in lines {
        m.push_str(l);
        m.push('\n');
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "format = 1\nrules = \"boom-and-zoom\"\nid = \"bz-1\"\nfirst = \"black\"\n\
        result = \"*\"\n\n[players]\nblack = \"Alice Example <alice@example.org>\"\n\
        red = \"bob@example.org\"\n\n[play]\nmoves = \"\"\"\n";

    fn record(lines: &[&str], result: &str) -> String {
        let mut s = HEAD.replace("result = \"*\"", &format!("result = \"{result}\""));
        for l in lines {
            s.push_str(l);
            s.push('\n');
        }
        s.push_str("\"\"\"\n");
        s
    }

    #[test]
    fn a_new_game_and_its_moves() {
        let l1 = "1.   black  6-13           2026-11-01T09:17:00Z  <a.1@x.org>";
        let l2 = "2.   red    61-34          2026-11-01T11:33:00Z  <b.2@x.org>";
        let l3 = "3.   black  resign         2026-11-01T12:00:00Z  <a.3@x.org>";
        let empty = record(&[], "*");
        assert_eq!(
            game_lines("bz-1", None, Some(&empty)),
            ["bz-1: new game, Alice Example vs bob@example.org"]
        );
        let one = record(&[l1], "*");
        let three = record(&[l1, l2, l3], "red");
        assert_eq!(
            game_lines("bz-1", Some(&empty), Some(&one)),
            ["bz-1: 1. black 6-13"]
        );
        assert_eq!(
            game_lines("bz-1", Some(&one), Some(&three)),
            [
                "bz-1: 2. red 61-34",
                "bz-1: 3. black resign",
                "bz-1: result = \"red\""
            ]
        );
        assert_eq!(
            game_lines("bz-1", Some(&three), Some(&one)),
            ["bz-1: 2 lines of the move list replaced"]
        );
        assert_eq!(
            game_lines("bz-1", Some(&one), None),
            ["bz-1: record removed"]
        );
        assert_eq!(
            game_lines("bz-1", Some("not = [toml"), Some(&one)),
            ["bz-1: record mended", "bz-1: 1. black 6-13"]
        );
        assert_eq!(
            game_lines("bz-1", Some(&one), Some("rules = ")),
            ["bz-1: record changed (it does not read as a record)"]
        );
        assert_eq!(
            game_lines("bz-1", Some(&one), Some(&format!("# a comment\n{one}"))),
            ["bz-1: record changed"]
        );
    }

    /// A takeback is appended like a move: each of its lines one line of
    /// the message, the move played again numbered as the one taken back.
    #[test]
    fn a_takeback_is_lines_of_its_own() {
        let l1 = "1.   black  6-13           2026-11-01T09:17:00Z  <a.1@x.org>";
        let l2 = "     black  takeback asked  2026-11-01T09:20:00Z  <a.2@x.org>";
        let l3 = "     red    takeback accepted  2026-11-01T10:00:00Z  <b.1@x.org>";
        let l4 = "1.   black  5-13           2026-11-01T10:30:00Z  <a.3@x.org>";
        let one = record(&[l1], "*");
        let four = record(&[l1, l2, l3, l4], "*");
        assert_eq!(
            game_lines("bz-1", Some(&one), Some(&four)),
            [
                "bz-1: black takeback asked",
                "bz-1: red takeback accepted",
                "bz-1: 1. black 5-13"
            ]
        );
    }

    #[test]
    fn messages() {
        let lines = vec!["a: 1. red 1-2".to_string(), "b: 3. black 4-5".into()];
        assert_eq!(
            commit_message(&lines),
            "a: 1. red 1-2 (and 1 more)\n\na: 1. red 1-2\nb: 3. black 4-5\n"
        );
        assert_eq!(
            commit_message(&lines[..1]),
            "a: 1. red 1-2\n\na: 1. red 1-2\n"
        );
    }
}
