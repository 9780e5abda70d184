//! What a game is, below the games and the [`crate::game::Game`] trait:
//! its identity ([`Rules`], the closed set of eight) and its descriptor
//! ([`RulesInfo`]: names, byline, sides and who moves first, notation
//! forms, id prefix, summary, complete rules text, example record, the
//! titles of the sections a refusal may cite, which each game declares
//! with [`sections!`](crate::sections) in `games/`). Each game fills its descriptor in its own folder
//! (`games/<game>/facts.rs`); [`crate::rules`], above the games, joins
//! the two.

use crate::geom::Geometry;
use crate::side::Side;
use std::fmt;

crate::__each_game!(__rules_enum!);

/// The [`Rules`] enum and [`Rules::ALL`], from the registry
/// ([`__each_game!`](crate::__each_game)).
#[doc(hidden)]
#[macro_export]
macro_rules! __rules_enum {
    (
        []
        $($test:ident $variant:ident $module:ident::$game:ident $info:path,)*
    ) => {
        /// One of the games pbem plays, as the registry
        /// ([`__each_game!`](crate::__each_game)) lists them; each one's
        /// facts (names, sides, byline, rules text) are in its own folder,
        /// `engine/src/games/<game>/`, and [`Rules::info`] finds them.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        pub enum Rules {
            $($variant,)*
        }

        impl Rules {
            /// Every game, in the registry's order.
            pub const ALL: [Rules; [$(Rules::$variant),*].len()] = [$(Rules::$variant),*];
        }
    };
}

/// What a player needs to know about a game before the first move.
#[derive(Debug)]
pub struct RulesInfo {
    pub slug: &'static str,
    pub name: &'static str,
    /// Who made the game, and how pbem credits them.
    pub credit: Credit,
    /// Side names in the order of the game's rules document ([`Side::A`] first).
    pub sides: [&'static str; 2],
    /// The side the rules make move first; `None`: named when the game is
    /// created (the four New Millennium games).
    pub fixed_first: Option<Side>,
    pub geometry: Geometry,
    /// A few lines: the aim and the moves.
    pub summary: &'static str,
    /// How to write moves, with examples.
    pub notation: &'static str,
    /// One canonical example of each form of move the game has (the
    /// game's rules document, "Notation"), the most common first. Every syntax hint a
    /// player of this game sees quotes these and nothing else, so that
    /// nobody is told to write a form their game lacks (`22-off` in Mad
    /// Rooks); see [`crate::notation::ParseError::explain`].
    pub examples: &'static [&'static str],
    /// The complete rules as `pbem rules GAME` prints them: the game's
    /// `games/<game>/<slug>.md`, in the project's own words, with every
    /// ruling pbem applies, the notation and the setup board.
    pub text: &'static str,
    /// The titles of the sections of [`RulesInfo::text`] (its `##` and
    /// `###` headings, in order) that a refusal may cite; the game's
    /// `Section` enum, made by [`sections!`](crate::sections).
    pub sections: &'static [&'static str],
    /// The prefix of the ids of this game's records (`bz-7k2q`).
    pub id_prefix: &'static str,
    /// An example game record (docs/src/formats/record.md) played to its end:
    /// `games/<slug>.toml` at the project's root, what `pbem demo` replays.
    pub example: &'static str,
}

/// The section of every game's rules that gives the sides, the pieces,
/// the starting position and who moves first (the tests check that every
/// rules text has it).
pub const SETUP: &str = "Setup";

/// Who made a game: the one source of its byline, wherever a game is
/// named with its maker (`pbem rules`, the `rules` and `challenge` mails).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Credit {
    /// The game's designer: "by Ty Bomba".
    By(&'static str),
    /// A game pbem plays as described by someone other than its designer
    /// (Toroidal Checkers, from T. Robison's post): "after T. Robison".
    After(&'static str),
}

impl fmt::Display for Credit {
    /// The byline: "by Ty Bomba", "after T. Robison".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Credit::By(p) => write!(f, "by {p}"),
            Credit::After(p) => write!(f, "after {p}"),
        }
    }
}

impl RulesInfo {
    /// The side's name ("black", "guerrilla").
    pub fn side_name(&self, side: Side) -> &'static str {
        self.sides[side.index()]
    }
    /// The side called `name` (case-insensitive).
    pub fn side_named(&self, name: &str) -> Option<Side> {
        let name = name.trim();
        Side::BOTH
            .into_iter()
            .find(|s| self.side_name(*s).eq_ignore_ascii_case(name))
    }
    /// "like 22-15, 22x15 or 22-off": the game's example moves, for hints.
    pub fn write_like(&self) -> String {
        crate::notation::like(self.examples)
    }
    /// The complete rules, as `pbem rules GAME` prints them and the
    /// `rules GAME` mail sends them: [`RulesInfo::text`] as plain text.
    /// The Markdown fences around the board go, and headings are
    /// underlined instead of marked with `#` (which would read as a move
    /// number when a player's reply quotes the mail).
    pub fn rules_text(&self) -> String {
        let mut out = String::new();
        for line in self.text.lines() {
            if line.starts_with("```") {
                continue;
            }
            let heading = [("### ", '~'), ("## ", '-'), ("# ", '=')]
                .into_iter()
                .find_map(|(mark, under)| line.strip_prefix(mark).map(|t| (t, under)));
            match heading {
                Some((title, under)) => {
                    out.push_str(title);
                    out.push('\n');
                    out.extend(std::iter::repeat_n(under, title.chars().count()));
                }
                None => out.push_str(line),
            }
            out.push('\n');
        }
        out
    }
    /// The game in one line of the list of games: "boom-and-zoom
    /// Boom & Zoom by Ty Bomba".
    pub fn line(&self) -> String {
        let i = self;
        format!("{:<20} {} {}", i.slug, i.name, i.credit)
    }
}
