//! How typed values of the data folder's files are written: in the words
//! the files held when these values were strings, so that a file written
//! before reads, and one written now reads in an older pbem.

/// A game's rules as their slug (`rules = "boom-and-zoom"`); read in any
/// spelling [`crate::rules::Rules`] accepts.
pub mod rules_slug {
    use crate::rules::Rules;
    use serde::{Deserialize, Deserializer, Serializer};

    /// # Errors
    /// Never, but for the serializer's own.
    pub fn serialize<S: Serializer>(rules: &Rules, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(rules.slug())
    }

    /// # Errors
    /// A name that is no game pbem plays, quoted, with the games it plays.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Rules, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A time as RFC 3339 in UTC to the second (`2026-11-21T10:00:00Z`): the
/// form pbem wrote when it kept times as text. Any offset reads.
pub mod rfc3339_secs {
    use chrono::{DateTime, SecondsFormat, Utc};
    use serde::{Deserialize, Deserializer, Serializer};

    /// `t` in the stored form.
    pub fn text(t: &DateTime<Utc>) -> String {
        t.to_rfc3339_opts(SecondsFormat::Secs, true)
    }

    /// # Errors
    /// Never, but for the serializer's own.
    pub fn serialize<S: Serializer>(t: &DateTime<Utc>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&text(t))
    }

    /// # Errors
    /// Text that is no RFC 3339 time, quoted, with an example.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<DateTime<Utc>, D::Error> {
        let text = String::deserialize(d)?;
        DateTime::parse_from_rfc3339(text.trim())
            .map(|t| t.to_utc())
            .map_err(|_| {
                serde::de::Error::custom(format!(
                    "\"{text}\" is not a time: write a date, a time and an offset, like \
                     2026-11-21T10:00:00Z"
                ))
            })
    }
}

#[cfg(test)]
mod tests {
    use crate::game::Side;
    use crate::rules::Rules;
    use crate::store::Store;

    /// A challenge as pbem wrote it when its rules, sides and time were
    /// text: every key, in order.
    const CHALLENGE: &str = "rules = \"mad-rooks\"\n\
        challenger = \"Ann <ann@example.org>\"\n\
        opponent = \"bob@example.org\"\n\
        challenger_side = \"red\"\n\
        first = \"red\"\n\
        created = \"2026-11-21T10:00:00Z\"\n\
        source = \"abc123\"\n\
        series = 3\n\
        rated = false\n\
        after = \"mr-old1\"\n";

    /// A series as pbem wrote it when its rules were text.
    const SERIES: &str = "rules = \"embed\"\n\
        players = [\"Ann <ann@x.org>\", \"bob@y.org\"]\n\
        length = 3\n\
        rated = true\n\
        games = [\"emb-abc\"]\n";

    fn store_with(dir: &std::path::Path, file: &str, text: &str) -> Store {
        let store = Store::open(dir).unwrap();
        let path = dir.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
        store
    }

    #[test]
    fn files_written_when_these_values_were_text_read_and_write_back_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let store = store_with(dir.path(), "challenges/ch-1.toml", CHALLENGE);
        let c = store.challenge("ch-1").unwrap().unwrap();
        assert_eq!(
            (c.rules, c.challenger_side, c.first),
            (Rules::MadRooks, Side::A, Side::A)
        );
        assert_eq!(
            c.created,
            "2026-11-21T10:00:00Z"
                .parse::<chrono::DateTime<chrono::Utc>>()
                .unwrap()
        );
        assert_eq!(toml::to_string(&c).unwrap(), CHALLENGE);
        let store = store_with(dir.path(), "series/s-1.toml", SERIES);
        let s = store.series("s-1").unwrap().unwrap();
        assert_eq!(s.rules, Rules::Embed);
        assert_eq!(toml::to_string(&s).unwrap(), SERIES);
    }

    #[test]
    fn a_bad_value_is_an_error_naming_the_file_and_the_value() {
        let dir = tempfile::tempdir().unwrap();
        for (key, from, to, words) in [
            (
                "side",
                "challenger_side = \"red\"",
                "challenger_side = \"green\"",
                "challenger_side = \"green\" is not a side of Mad Rooks: write \"red\" or \"blue\"",
            ),
            ("first", "first = \"red\"", "first = \"Red\"", ""),
            (
                "rules",
                "rules = \"mad-rooks\"",
                "rules = \"chess\"",
                "unknown game `chess`",
            ),
            (
                "time",
                "created = \"2026-11-21T10:00:00Z\"",
                "created = \"tuesday\"",
                "\"tuesday\" is not a time",
            ),
        ] {
            let store = store_with(
                dir.path(),
                "challenges/ch-2.toml",
                &CHALLENGE.replace(from, to),
            );
            match store.challenge("ch-2") {
                Ok(c) if words.is_empty() => {
                    assert_eq!(c.unwrap().first, Side::A, "{key}: a side in any case");
                }
                Ok(c) => panic!("{key}: read as {c:?}"),
                Err(e) => {
                    let e = e.to_string();
                    assert!(
                        e.contains("challenges/ch-2.toml") && e.contains(words),
                        "{key}: {e}"
                    );
                }
            }
        }
    }
}
