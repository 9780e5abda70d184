//! Checked play from a player's text, above [`crate::rules`]: parse the
//! notation (syntax, [`crate::notation`]), then resolve it in the position
//! ([`crate::game::resolve`]); a refusal ([`Rejected`]) quotes the text,
//! the game's own example moves and the section of its rules that says
//! why. [`Origin`] is where a listed move starts (`pbem moves --from`).

use crate::game::{Game, MoveError, NOTATION, join_or, resolve};
use crate::geom::Geometry;
use crate::notation::{self, Notation};
use crate::rules::{Cite, Rules};
use std::fmt;

/// Why a text is not an [`Origin`]: each says what to write instead.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OriginError {
    /// A point where one was due, but not exactly one.
    #[error("give one point, like {example}")]
    NotOnePoint { example: &'static str },
    /// Not notation at all; explained with the game's own examples.
    #[error("{}", error.explain(*examples))]
    Notation {
        error: notation::ParseError,
        examples: Option<&'static [&'static str]>,
    },
    #[error("there is no square {number}: squares are 1-{squares}")]
    NoSquare { number: u32, squares: u8 },
    #[error("give a square number, like 22")]
    NotANumber,
}

/// Where a listed move starts: a square, or for stones the first stone's
/// point (`pbem moves --from`, the `moves SQUARE` mail command).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Square(crate::geom::Sq),
    Point(crate::geom::Point),
}

impl Origin {
    /// Reads `22` or `27/36` (either diagonal name of a point).
    ///
    /// # Errors
    /// A message saying what to write instead.
    pub fn parse(text: &str, geometry: Geometry) -> Result<Origin, OriginError> {
        Origin::read(text, geometry, None)
    }

    /// [`Origin::parse`] in game `rules`: a point only where the game
    /// places stones, and hints that quote the game's own moves.
    ///
    /// # Errors
    /// A message saying what to write instead.
    pub fn parse_for(text: &str, rules: Rules) -> Result<Origin, OriginError> {
        Origin::read(text, rules.geometry(), Some(rules.examples()))
    }

    fn read(
        text: &str,
        geometry: Geometry,
        examples: Option<&'static [&'static str]>,
    ) -> Result<Origin, OriginError> {
        // Characters as every reader takes them: `１２` is 12.
        let text: String = text.chars().filter_map(crate::glyph::fold).collect();
        let text = text.as_str();
        let stones = examples.is_none_or(|ex| ex.iter().any(|e| e.contains('/')));
        if text.contains('/') && stones {
            let point = examples
                .and_then(|ex| ex.iter().find(|e| e.contains('/')))
                .and_then(|e| e.split(',').next())
                .unwrap_or("27/36");
            return match notation::parse(text, geometry) {
                Ok(Notation::Stones(p)) if p.len() == 1 => Ok(Origin::Point(p[0])),
                Ok(_) => Err(OriginError::NotOnePoint { example: point }),
                Err(error) => Err(OriginError::Notation { error, examples }),
            };
        }
        match text.trim().parse::<u32>() {
            Ok(n) if geometry.contains_number(n) => {
                Ok(Origin::Square(crate::geom::Sq((n - 1) as u8)))
            }
            Ok(number) => Err(OriginError::NoSquare {
                number,
                squares: geometry.squares(),
            }),
            Err(_) => Err(OriginError::NotANumber),
        }
    }

    /// Whether the move written `n` starts here. A square also matches
    /// stones whose first point is at its bottom-right corner.
    pub fn starts(&self, n: &Notation, geometry: Geometry) -> bool {
        match (self, n) {
            (Origin::Square(s), Notation::Path(p)) => p.from == *s,
            (Origin::Square(s), Notation::Stones(points)) => {
                points.first().map(|p| geometry.point_square(*p)) == Some(*s)
            }
            (Origin::Point(q), Notation::Stones(points)) => points.first() == Some(q),
            (Origin::Point(_), Notation::Path(_)) => false,
        }
    }
}

/// A refused move with the text the player wrote and the game it was
/// written in, for messages: a syntax error's hints quote that game's own
/// example moves ([`crate::descriptor::RulesInfo::examples`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Rejected {
    pub input: String,
    pub error: MoveError,
    pub rules: Rules,
}

impl fmt::Display for Rejected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let input = self.input.trim();
        match &self.error {
            MoveError::Syntax(e) => write!(
                f,
                "{} ({})",
                e.explain(Some(self.rules.examples())),
                self.rules.cite(NOTATION)
            ),
            MoveError::GameOver(end) => {
                write!(
                    f,
                    "{input} cannot be played: the game is over ({})",
                    end.reason
                )
            }
            MoveError::Illegal {
                side,
                reason,
                section,
                alternatives,
            } => {
                write!(
                    f,
                    "{input} is not a legal move for {side}: {reason} ({})",
                    self.rules.cite(section)
                )?;
                if !alternatives.is_empty() {
                    let from = input_origin(input);
                    write!(f, "; legal moves from {from}: {}", alternatives.join(", "))?;
                }
                Ok(())
            }
            MoveError::Ambiguous { candidates } => write!(
                f,
                "{input} is ambiguous: it could be {}; write the one you mean",
                join_or(candidates)
            ),
        }
    }
}

impl std::error::Error for Rejected {}

impl Rejected {
    /// The refusal without its list of legal moves and without the
    /// section of the rules it cites, and that list with the square it
    /// starts from: for messages that show the list and the section apart
    /// (a mail names the `rules` command, not `pbem rules`).
    pub fn without_alternatives(&self) -> (String, Option<(String, Vec<String>)>) {
        match &self.error {
            MoveError::Illegal {
                side,
                reason,
                alternatives,
                ..
            } => {
                let input = self.input.trim();
                let bare = format!("{input} is not a legal move for {side}: {reason}");
                let from =
                    (!alternatives.is_empty()).then(|| (input_origin(input), alternatives.clone()));
                (bare, from)
            }
            MoveError::Syntax(e) => (e.explain(Some(self.rules.examples())), None),
            _ => (self.to_string(), None),
        }
    }

    /// The section of the game's rules the refusal rests on, if it is a
    /// refusal by a rule (a move against the rules of play, or text that
    /// is no move in the game's notation; not a finished game).
    pub fn cite(&self) -> Option<Cite> {
        match &self.error {
            MoveError::Illegal { section, .. } => Some(self.rules.cite(section)),
            MoveError::Syntax(_) => Some(self.rules.cite(NOTATION)),
            _ => None,
        }
    }
}

fn input_origin(input: &str) -> String {
    input
        .trim_start_matches(['L', 'l'])
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '/')
        .collect()
}

/// Parses `text` and resolves it in `pos`.
///
/// # Errors
/// [`Rejected`] quoting `text`.
pub fn parse_move<G: Game>(pos: &G, text: &str) -> Result<G::Move, Rejected> {
    let reject = |error| Rejected {
        input: text.trim().to_string(),
        error,
        rules: G::RULES,
    };
    let n = notation::parse(text, G::RULES.geometry()).map_err(|e| reject(MoveError::Syntax(e)))?;
    resolve(pos, &n).map_err(reject)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::first_sides;

    #[test]
    fn origins_match_by_notation_not_by_text() {
        let g = Geometry::EIGHT;
        let twelve = Origin::parse("12", g).unwrap();
        // A lunge starts on 12 though its text starts with `L`.
        assert!(twelve.starts(&notation::parse("L12-28", g).unwrap(), g));
        assert!(!twelve.starts(&notation::parse("2-10", g).unwrap(), g));
        let point = Origin::parse("28/35", g).unwrap();
        assert!(point.starts(&notation::parse("27/36,28/37", g).unwrap(), g));
        assert!(
            Origin::parse("65", g)
                .unwrap_err()
                .to_string()
                .contains("no square 65")
        );
    }
    /// The forms of move a message quotes, outside the player's own text
    /// (`22-off`, not the words "off the board"), named as in [`forms_of`].
    fn quoted_forms(message: &str, input: &str) -> Vec<(&'static str, String)> {
        let token = regex::Regex::new(r"(?i)\bl?\d+(?:[-x/:,]\d+|-off)+").unwrap();
        let outside = if input.is_empty() {
            message.to_string()
        } else {
            message.replace(input, " ")
        };
        let mut found = Vec::new();
        for t in token.find_iter(&outside).map(|m| m.as_str().to_lowercase()) {
            found.extend(forms_of(&t).into_iter().map(|f| (f, t.clone())));
        }
        found
    }

    /// The special forms a move is written in; plain `A-B` and `AxB` are
    /// in every game.
    fn forms_of(text: &str) -> Vec<&'static str> {
        let text = text.to_lowercase();
        let marks = text.matches(['-', 'x']).count();
        [
            ("off", text.contains("off")),
            ("count", text.contains(':')),
            ("lunge", text.starts_with('l')),
            ("stones", text.contains('/')),
            ("chain", marks >= 2 && !text.contains("off")),
        ]
        .into_iter()
        .filter_map(|(f, has)| has.then_some(f))
        .collect()
    }

    /// Text no game reads, text some game reads, and moves of every
    /// game's shape: whatever the game, the messages about them quote no
    /// form the game lacks.
    const INPUTS: &[&str] = &[
        "",
        "hello",
        "22",
        "22-",
        "22x",
        "22-65",
        "22-165",
        "22xoff",
        "22-off-15",
        "22-off:2",
        "22-OFF",
        "12-20:0",
        "12-20:9",
        "12-20:",
        "12-20:2",
        "12x20:3",
        "12-20:2x",
        "27/30",
        "27/",
        "/36",
        "27/36",
        "27/36,28/37",
        "27/36 28/37",
        "27/36,28/37,29/38",
        "28/35,x",
        "L",
        "L12",
        "L12-28",
        "L12x28",
        "22--15",
        "x",
        "22-15 23-16",
        "22x36x50",
        "22-36-50",
        "22x",
        "0-1",
        "13-x21",
        "13х21",
        "22-15;",
        "99-100",
    ];

    fn every_message_names_only_forms_of<G: Game>() {
        let rules = G::RULES;
        let has: Vec<&str> = rules.examples().iter().flat_map(|e| forms_of(e)).collect();
        let pos = G::start(first_sides::<G>()[0]);
        for input in INPUTS {
            let mut messages = Vec::new();
            if let Err(e) = parse_move(&pos, input) {
                messages.push(e.to_string());
                if matches!(e.error, MoveError::Syntax(_)) {
                    // A syntax error gives the game's own examples.
                    assert!(
                        rules
                            .examples()
                            .iter()
                            .flat_map(|ex| ex.split(','))
                            .any(|ex| messages[0].contains(ex))
                            || messages[0].contains("no square"),
                        "{rules}: {input:?}: {}",
                        messages[0]
                    );
                }
            }
            if let Err(e) = Origin::parse_for(input, rules) {
                messages.push(e.to_string());
            }
            for m in &messages {
                for (form, token) in quoted_forms(m, input.trim()) {
                    assert!(
                        has.contains(&form),
                        "{rules}: {input:?}: `{token}` is a {form} move, which {rules} lacks: {m}"
                    );
                }
            }
        }
    }

    #[test]
    fn every_games_messages_name_only_its_own_move_forms() {
        for rules in Rules::ALL {
            crate::with_game!(rules, G => every_message_names_only_forms_of::<G>());
        }
        // The test sees what it looks for.
        assert_eq!(quoted_forms("write it like 22-off", "x")[0].0, "off");
        assert!(quoted_forms("`22-off` is not a move", "22-off").is_empty());
        assert_eq!(forms_of("27/36,28/37"), ["stones"]);
        assert_eq!(forms_of("L12x28"), ["lunge"]);
        assert_eq!(forms_of("12-20:2"), ["count"]);
        assert_eq!(forms_of("22x36x50"), ["chain"]);
    }

    #[test]
    fn syntax_hints_quote_the_games_own_moves() {
        let said = |rules: Rules, input: &str| {
            crate::with_game!(rules, G => parse_move(&G::start(first_sides::<G>()[0]), input)
                .unwrap_err()
                .to_string())
        };
        assert_eq!(
            said(Rules::MadRooks, "13-x21"),
            "`13-x21` is not a move: unexpected 'x'; write a move like 18-42 or 18x22 (see `pbem rules mad-rooks`, section Notation)"
        );
        assert_eq!(
            said(Rules::BoomAndZoom, "13-x21"),
            "`13-x21` is not a move: unexpected 'x'; write a move like 22-15, 22x15 or 22-off (see `pbem rules boom-and-zoom`, section Notation)"
        );
        assert!(
            said(Rules::GuerrillaCheckers, "hello").contains("like 27/36,28/37, 27-36 or 27x36x45")
        );
        assert!(said(Rules::Mad, "12-20:9").contains("write it like 12-20:2"));
        assert!(
            said(Rules::MadBishops, "22xoff").contains(
                "no piece leaves the board in this game; write a move like 22-44 or 22x33"
            )
        );
        assert!(said(Rules::Embed, "12-20:9").contains("no move of this game counts checkers"));
        assert!(
            said(Rules::ToroidalCheckers, "27/30")
                .contains("no move of this game is written with `/`")
        );
        assert!(said(Rules::DragonsTeeth, "22xoff").contains("write it like 49-off"));
    }
}
