//! The closed set of games pbem plays, above the games: each [`Rules`]
//! value (a slug in a record) with its game's facts ([`Rules::info`]),
//! and the dispatch to the generic code for that game ([`with_game!`]).
//! The enum itself is declared below the games, in
//! [`crate::descriptor`], so that the [`crate::game::Game`] trait can name
//! a game's identity; everything that needs the games is here.

pub use crate::descriptor::{Credit, Rules, RulesInfo, SETUP};
use crate::side::Side;
use std::fmt;
use std::str::FromStr;

/// Where the complete rules of a game say something: a section of
/// `pbem rules GAME`, cited by refusals ("see `pbem rules embed`, section
/// Capturing").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cite {
    pub rules: Rules,
    /// A title in [`RulesInfo::sections`].
    pub section: &'static str,
}

impl fmt::Display for Cite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "see `pbem rules {}`, section {}",
            self.rules.slug(),
            self.section
        )
    }
}

crate::__each_game!(__rules_info!);

/// [`Rules::info`] and [`Rules::geometry`], from the registry
/// ([`__each_game!`](crate::__each_game)): the one table from a game's
/// identity to its facts.
#[doc(hidden)]
#[macro_export]
macro_rules! __rules_info {
    (
        []
        $($test:ident $variant:ident $module:ident::$game:ident $info:path,)*
    ) => {
        impl $crate::rules::Rules {
            /// The game's facts, from its folder (`games/<game>/facts.rs`).
            pub const fn info(self) -> &'static $crate::rules::RulesInfo {
                match self {
                    $($crate::rules::Rules::$variant => {
                        use $crate::games::*;
                        &$info
                    })*
                }
            }
            /// The game's folder under `engine/src/games/`, which holds its
            /// code, its rules (`<slug>.md`) and its example records
            /// (`<slug>.toml`, finished, and `<slug>-in-play.toml`).
            pub const fn folder(self) -> &'static str {
                match self {
                    $($crate::rules::Rules::$variant => stringify!($module),)*
                }
            }
            /// The board: a constant, for the games' own constants.
            pub const fn geometry(self) -> $crate::geom::Geometry {
                self.info().geometry
            }
        }
    };
}

impl Rules {
    /// Where the game's example record is in the source, from the
    /// workspace's root: `engine/src/games/<folder>/<slug>.toml`, a
    /// finished game ([`RulesInfo::example`]), or with `in_play` the
    /// opening of it, `<slug>-in-play.toml`.
    pub fn example_path(self, in_play: bool) -> String {
        let tail = if in_play { "-in-play" } else { "" };
        format!(
            "engine/src/games/{}/{}{tail}.toml",
            self.folder(),
            self.slug()
        )
    }
    /// "by Ty Bomba", "after T. Robison".
    pub fn byline(self) -> Credit {
        self.info().credit
    }
    /// The complete rules, as `pbem rules GAME` prints them and the
    /// `rules GAME` mail sends them: [`RulesInfo::text`] as plain text.
    /// The Markdown fences around the board go, and headings are
    /// underlined instead of marked with `#` (which would read as a move
    /// number when a player's reply quotes the mail).
    pub fn rules_text(self) -> String {
        self.info().rules_text()
    }
    /// The game in one line of the list of games: "boom-and-zoom
    /// Boom & Zoom by Ty Bomba".
    pub fn line(self) -> String {
        self.info().line()
    }
    /// A section of the game's rules, for a refusal to cite.
    pub fn cite(self, section: &'static str) -> Cite {
        Cite {
            rules: self,
            section,
        }
    }
    /// The prefix of the ids of this game's records ([`RulesInfo::id_prefix`]).
    pub fn id_prefix(self) -> &'static str {
        self.info().id_prefix
    }
    pub fn slug(self) -> &'static str {
        self.info().slug
    }
    pub fn name(self) -> &'static str {
        self.info().name
    }
    pub fn side_name(self, side: Side) -> &'static str {
        self.info().side_name(side)
    }
    /// The side called `name` (case-insensitive).
    pub fn side_named(self, name: &str) -> Option<Side> {
        self.info().side_named(name)
    }
    pub fn fixed_first(self) -> Option<Side> {
        self.info().fixed_first
    }
    /// The game's example moves, one per form ([`RulesInfo::examples`]).
    pub fn examples(self) -> &'static [&'static str] {
        self.info().examples
    }
    /// "like 22-15, 22x15 or 22-off": the game's example moves, for hints.
    pub fn write_like(self) -> String {
        self.info().write_like()
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.slug())
    }
}

/// The games pbem plays, one [`Rules::line`] each.
pub fn listing() -> String {
    Rules::ALL.map(Rules::line).join("\n")
}

/// An unknown game name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRules(pub String);

impl fmt::Display for UnknownRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown game `{}`: pbem plays {}",
            self.0,
            Rules::ALL.map(|r| r.slug()).join(", ")
        )
    }
}

impl std::error::Error for UnknownRules {}

impl FromStr for Rules {
    type Err = UnknownRules;
    /// Accepts the slug, the display name, and spellings in between
    /// (`Boom & Zoom`, `boom_and_zoom`, `M.A.D.`), case-insensitive.
    fn from_str(s: &str) -> Result<Rules, UnknownRules> {
        // The slug as a record writes it: no spelling to fold.
        if let Some(r) = Rules::ALL.into_iter().find(|r| r.slug() == s) {
            return Ok(r);
        }
        let key = |t: &str| -> String {
            t.to_ascii_lowercase()
                .replace('&', "and")
                .chars()
                .filter(|c| c.is_ascii_alphanumeric())
                .collect()
        };
        let k = key(s);
        Rules::ALL
            .into_iter()
            .find(|r| key(r.slug()) == k || key(r.name()) == k)
            .ok_or_else(|| UnknownRules(s.trim().to_string()))
    }
}

/// Runs `$body` with `$g` bound to the game type for `$rules`: the one
/// place where a runtime [`Rules`] meets the generic code. The games come
/// from the registry, [`__each_game!`](crate::__each_game).
#[macro_export]
macro_rules! with_game {
    ($rules:expr, $g:ident => $body:expr) => {
        $crate::__each_game!(__with_game_match! ($rules) $g ($body))
    };
}

/// [`with_game!`]'s `match`, one arm per game of
/// [`__each_game!`](crate::__each_game).
#[doc(hidden)]
#[macro_export]
macro_rules! __with_game_match {
    (
        [($rules:expr) $g:ident ($body:expr)]
        $($test:ident $variant:ident $module:ident::$game:ident $info:path,)*
    ) => {
        match $rules {
            $($crate::rules::Rules::$variant => {
                type $g = $crate::games::$module::$game;
                $body
            })*
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse() {
        assert_eq!("boom-and-zoom".parse(), Ok(Rules::BoomAndZoom));
        assert_eq!("Boom & Zoom".parse(), Ok(Rules::BoomAndZoom));
        assert_eq!("M.A.D.".parse(), Ok(Rules::Mad));
        assert_eq!("MAD".parse(), Ok(Rules::Mad));
        assert!(
            "chess"
                .parse::<Rules>()
                .unwrap_err()
                .to_string()
                .contains("mad-rooks")
        );
        for r in Rules::ALL {
            assert_eq!(r.slug().parse(), Ok(r));
        }
    }
}
