//! A record's `[match]` table: the series or tournament a game
//! belongs to, and whether it is rated. Readers of the minimal form
//! (docs/src/formats/record.md) ignore it, so a record still validates on its own.
//!
//! ```toml
//! [match]
//! series = "s-7k2qabcdefgh"   # its series, game 2 of a best of 3
//! game = 2
//! of = 3
//! tournament = "spring-cup"   # or its tournament, round 4
//! round = 4
//! rated = false               # left out: rated
//! ```

use serde::Deserialize;
use std::fmt::Write as _;
use toml::Spanned;

/// What a record's `[match]` table says; the default (no table) is a
/// rated game on its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchInfo {
    /// The series' id.
    pub series: Option<String>,
    /// Which game of the series (from 1), and of how many at most.
    pub game: Option<u32>,
    pub of: Option<u32>,
    /// The tournament's name.
    pub tournament: Option<String>,
    /// Its round, from 1.
    pub round: Option<u32>,
    /// Whether the game counts for the ratings.
    pub rated: bool,
}

impl Default for MatchInfo {
    fn default() -> MatchInfo {
        MatchInfo {
            series: None,
            game: None,
            of: None,
            tournament: None,
            round: None,
            rated: true,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawMatch {
    series: Option<Spanned<String>>,
    game: Option<Spanned<i64>>,
    of: Option<Spanned<i64>>,
    tournament: Option<Spanned<String>>,
    round: Option<Spanned<i64>>,
    rated: Option<bool>,
}

/// A name in `[match]`: one word of letters, digits and dashes (an id or a
/// tournament's name), at most 40 characters.
fn name_ok(s: &str) -> bool {
    (1..=40).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

impl RawMatch {
    /// The table read, or the byte offset of the bad value and what is
    /// wrong with it.
    pub(super) fn read(self) -> Result<MatchInfo, (usize, String)> {
        let name = |v: Option<Spanned<String>>, key: &str| match v {
            Some(s) if !name_ok(s.get_ref()) => Err((
                s.span().start,
                format!(
                    "[match] {key} = {:?} is no name: letters, digits and dashes",
                    s.get_ref()
                ),
            )),
            v => Ok(v.map(Spanned::into_inner)),
        };
        let count = |v: Option<Spanned<i64>>, key: &str| match v {
            Some(n) => u32::try_from(*n.get_ref())
                .ok()
                .filter(|&n| (1..=10_000).contains(&n))
                .map(Some)
                .ok_or_else(|| {
                    (
                        n.span().start,
                        format!("[match] {key} = {} needs a number from 1", n.get_ref()),
                    )
                }),
            None => Ok(None),
        };
        let game_span = self.game.as_ref().map(|g| g.span().start);
        let m = MatchInfo {
            series: name(self.series, "series")?,
            game: count(self.game, "game")?,
            of: count(self.of, "of")?,
            tournament: name(self.tournament, "tournament")?,
            round: count(self.round, "round")?,
            rated: self.rated.unwrap_or(true),
        };
        if let (Some(g), Some(of)) = (m.game, m.of)
            && g > of
        {
            return Err((
                game_span.unwrap_or(0),
                format!("[match] game = {g} is past of = {of}"),
            ));
        }
        Ok(m)
    }
}

impl MatchInfo {
    /// The `[match]` table as the writer puts it (empty for the default).
    pub fn to_toml(&self) -> String {
        if *self == MatchInfo::default() {
            return String::new();
        }
        let mut s = String::from("\n[match]\n");
        let q = |v: &str| toml::Value::String(v.to_string()).to_string();
        if let Some(v) = &self.series {
            let _ = writeln!(s, "series = {}", q(v));
        }
        for (key, v) in [("game", self.game), ("of", self.of)] {
            if let Some(v) = v {
                let _ = writeln!(s, "{key} = {v}");
            }
        }
        if let Some(v) = &self.tournament {
            let _ = writeln!(s, "tournament = {}", q(v));
        }
        if let Some(v) = self.round {
            let _ = writeln!(s, "round = {v}");
        }
        if !self.rated {
            let _ = writeln!(s, "rated = false");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::MatchInfo;
    use crate::record::{Record, write};

    const HEAD: &str = "rules = \"mad-rooks\"\nmoves = \"\"\"\n\"\"\"\n";

    #[test]
    fn a_match_table_reads_writes_and_reads_back() {
        let text = format!("{HEAD}[match]\nseries = \"s-abc\"\ngame = 2\nof = 3\nrated = false\n");
        let rec = Record::parse("t.toml", &text).unwrap();
        let want = MatchInfo {
            series: Some("s-abc".into()),
            game: Some(2),
            of: Some(3),
            rated: false,
            ..MatchInfo::default()
        };
        assert_eq!(rec.match_info, want);
        let written = write::to_string(&rec);
        assert!(
            written.contains(
                "\n[match]\nseries = \"s-abc\"\ngame = 2\nof = 3\nrated = false\n\n[play]"
            ),
            "{written}"
        );
        assert_eq!(Record::parse("t.toml", &written).unwrap().match_info, want);
        // No table: a rated game on its own, and none written.
        let plain = Record::parse("t.toml", HEAD).unwrap();
        assert_eq!(plain.match_info, MatchInfo::default());
        assert!(!write::to_string(&plain).contains("[match]"));
    }

    #[test]
    fn a_bad_match_table_is_refused_with_its_line() {
        for (table, says) in [
            ("game = 0", "needs a number from 1"),
            ("game = 4\nof = 3", "past of = 3"),
            ("series = \"a b\"", "is no name"),
            ("tournament = \"\"", "is no name"),
            ("colour = \"red\"", "unknown field"),
            ("rated = \"no\"", "invalid type"),
        ] {
            let text = format!("{HEAD}[match]\n{table}\n");
            let e = Record::parse("t.toml", &text).unwrap_err();
            assert!(e.to_string().contains(says), "{table}: {e}");
            assert!(e.line >= 4, "{table}: {e}");
        }
    }
}
