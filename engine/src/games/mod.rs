//! The eight games, one folder each, all behind [`crate::game::Game`].
//! Everything about a game is in its folder `engine/src/games/<game>/`,
//! so a rule is found by game and concept in one step:
//!
//! - `facts.rs`: the descriptor ([`crate::descriptor::RulesInfo`]): names,
//!   byline, sides and who moves first, notation forms and examples, id
//!   prefix, summary, and the sections of the rules text its refusals cite;
//! - `<slug>.md`: the complete rules (`pbem rules <slug>`);
//! - its finished example game (`pbem demo`) is `games/<slug>.toml` at
//!   the project's root, where the CLI's help and the tests name it;
//! - `mod.rs`: position, setup, play, end (the [`crate::game::Game`] impl);
//! - `movegen.rs`: the moves, through one visitor (`Game::each_move`);
//! - `explain.rs`: why a move is illegal, first the forms of move the
//!   game lacks ([`refuse_lacking`]), then the board;
//! - `diagram.rs`: the ASCII board.
//!
//! Mad Rooks and Mad Bishops share `mad_rooks/` (one set of rules on two
//! boards). The games' tests are in `engine/tests/engine/games/`, their
//! perft tables in `engine/tests/perft/<slug>.txt`.

pub mod boom_and_zoom;
pub mod dragons_teeth;
pub mod embed;
pub mod guerrilla;
pub mod mad;
pub mod mad_rooks;
pub mod toroidal;

/// The registry: every game pbem plays, one line each, in the order pbem
/// lists them. A line names the game's test name (its slug with `_` for
/// `-`), its [`Rules`](crate::rules::Rules) variant, its type under
/// [`crate::games`] and its facts ([`RulesInfo`]). Everything that lists
/// or dispatches on the games is made from it: the [`Rules`](crate::rules::Rules)
/// enum and [`Rules::ALL`](crate::rules::Rules::ALL) (in
/// [`crate::descriptor`]), [`Rules::info`](crate::rules::Rules::info) and
/// [`with_game!`](crate::with_game) (in [`crate::rules`]), a test per game
/// in every suite ([`game_tests!`](crate::game_tests)), and the games the
/// CLI's help lists. A new game is its folder, its `pub mod` above and one
/// line here.
///
/// Hands the list to `$crate::$then!`, after the caller's tokens in
/// brackets.
#[doc(hidden)]
#[macro_export]
macro_rules! __each_game {
    ($then:ident! $($args:tt)*) => {
        $crate::$then! {
            [$($args)*]
            boom_and_zoom BoomAndZoom boom_and_zoom::BoomAndZoom boom_and_zoom::facts::INFO,
            dragons_teeth DragonsTeeth dragons_teeth::DragonsTeeth dragons_teeth::facts::INFO,
            embed Embed embed::Embed embed::facts::INFO,
            mad Mad mad::Mad mad::facts::INFO,
            mad_rooks MadRooks mad_rooks::MadRooks mad_rooks::facts::MAD_ROOKS,
            mad_bishops MadBishops mad_rooks::MadBishops mad_rooks::facts::MAD_BISHOPS,
            guerrilla_checkers GuerrillaCheckers guerrilla::Guerrilla guerrilla::facts::INFO,
            toroidal_checkers ToroidalCheckers toroidal::Toroidal toroidal::facts::INFO,
        }
    };
}

use crate::descriptor::RulesInfo;
use crate::game::Explanation;
use crate::notation::{Notation, Path};

/// A form of move that some games have and others lack (`docs/src/rules/common.md`,
/// "Canonical notation"): whether a game has it is read from its example
/// moves ([`RulesInfo::examples`], one per form).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// Stones on points: `27/36,28/37`.
    Stones,
    /// `L12-28`.
    Lunge,
    /// `12-20:2`, with the count written.
    Count(u8),
    /// `22-off`.
    Off,
    /// More than one square to go to: `22x36x50`.
    Chain,
}

impl Form {
    /// Whether `example` (a canonical move) is written in this form.
    fn in_example(self, example: &str) -> bool {
        match self {
            Form::Stones => example.contains('/'),
            Form::Lunge => example.starts_with('L'),
            Form::Count(_) => example.contains(':'),
            Form::Off => example.contains("off"),
            Form::Chain => example.matches(['-', 'x']).count() >= 2 && !example.contains("off"),
        }
    }
}

/// The refusals every game gives first, before looking at the board, when
/// it wants a path of squares: stones (no path), then a form the game
/// lacks (its examples have none), in the order lunge, count, off, chain.
/// `words` gives the game's own refusal of the form, or `None` where the
/// game explains it later in its own terms (for stones, `None` gives the
/// hint that the game's moves are written with square numbers, right for
/// every game without stones); the path of squares is returned when
/// nothing is refused. Total: Guerrilla Checkers, a game of stones, calls
/// it on COIN's turn, and its `words` refuses the stones in its own terms.
pub(crate) fn refuse_lacking<'n>(
    info: &RulesInfo,
    n: &'n Notation,
    words: impl Fn(Form) -> Option<Explanation>,
) -> Result<&'n Path, Explanation> {
    let lacks = |form: Form| !info.examples.iter().any(|e| form.in_example(e));
    let p = match n {
        Notation::Stones(_) => {
            return Err(words(Form::Stones).unwrap_or_else(|| Explanation {
                section: crate::game::NOTATION,
                text: square_moves_hint(info),
            }));
        }
        Notation::Path(p) => p,
    };
    let written = [
        (p.lunge, Form::Lunge),
        (p.count.is_some(), Form::Count(p.count.unwrap_or(0))),
        (p.off, Form::Off),
        (p.to.len() > 1, Form::Chain),
    ];
    for (is, form) in written {
        if is
            && lacks(form)
            && let Some(refusal) = words(form)
        {
            return Err(refusal);
        }
    }
    Ok(p)
}

/// "Embed moves are written with square numbers, like 37-29 or 37x29":
/// the answer to stones (`27/36`) in a game of squares, quoting the
/// game's own example moves ([`crate::rules::RulesInfo::examples`]).
pub(crate) fn square_moves_hint(rules: &RulesInfo) -> String {
    format!(
        "{} moves are written with square numbers, {}",
        rules.name,
        rules.write_like()
    )
}

/// Declares a game's `Section` enum: the sections of its rules text that
/// its refusals cite, each with its title. `TITLES` lists them all; the
/// tests check that they are exactly the text's headings, so a refusal can
/// only cite a section that exists.
#[macro_export]
macro_rules! sections {
    ($(#[$m:meta])* $vis:vis enum $name:ident { $($(#[$vm:meta])* $v:ident => $title:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        $vis enum $name { $($(#[$vm])* $v),+ }

        impl $name {
            /// Every section's title, in the order of the text.
            pub const TITLES: &'static [&'static str] = &[$($title),+];

            /// The section's heading in the rules text.
            pub const fn title(self) -> &'static str {
                match self { $($name::$v => $title),+ }
            }

            /// A refusal that this section of the rules explains.
            pub fn says(self, text: impl Into<String>) -> $crate::game::Explanation {
                $crate::game::Explanation { section: self.title(), text: text.into() }
            }
        }
    };
}
