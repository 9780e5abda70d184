//! How the CLI reads a game's name: every command that takes a game takes
//! it through [`Games`], so its help lists the games from the engine's
//! registry (`[possible values: boom-and-zoom, ...]`) and no list of games
//! is typed by hand.

use crate::rules::Rules;
use clap::builder::{PossibleValue, TypedValueParser};
use std::ffi::OsStr;

/// Reads a game's slug or name (`mad-rooks`, `Boom & Zoom`, `M.A.D.`, as
/// [`Rules`]'s `FromStr` accepts them) and names every game's slug as a
/// possible value, for the help, the man pages and the shell completions.
#[derive(Clone, Copy, Debug, Default)]
pub struct Games;

impl TypedValueParser for Games {
    type Value = Rules;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<Rules, clap::Error> {
        // clap's own reading of a `FromStr` value: the same error, which
        // quotes the value and lists the games.
        let from_str = |s: &str| s.parse::<Rules>();
        from_str.parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            Rules::ALL.into_iter().map(|r| PossibleValue::new(r.slug())),
        ))
    }
}
