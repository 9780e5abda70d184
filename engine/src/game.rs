//! The [`Game`] trait that all eight games implement, and the generic code
//! built on it: checked play, resolving notation against a position, and
//! the errors a player sees.

use crate::geom::Geometry;
pub use crate::notation::join_or;
use crate::notation::{self, Notation, ParseError};
use crate::rules::Rules;
use std::fmt;
use std::hash::Hash;

/// One of a game's two sides. `A` is the side RULES.md lists first (the
/// one that sets up on the low-numbered rows), `B` the other; their names
/// come from [`Rules::side_name`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Side {
    A,
    B,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::A, Side::B];
    #[inline]
    pub const fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    Win(Side),
    Draw,
}

/// A finished game: the outcome and why, in words for the players
/// ("red has no tower left; black scored 6, red 3"). Mails and commands
/// show the reason in parentheses, so it has none of its own (issue 14:
/// "(... red 0 (6 or more wins))").
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct End {
    pub outcome: Outcome,
    pub reason: String,
}

impl End {
    pub fn win(side: Side, reason: impl Into<String>) -> End {
        End::new(Outcome::Win(side), reason.into())
    }
    pub fn draw(reason: impl Into<String>) -> End {
        End::new(Outcome::Draw, reason.into())
    }
    fn new(outcome: Outcome, reason: String) -> End {
        debug_assert!(
            !reason.contains(['(', ')']),
            "a reason is shown in parentheses and has none of its own: {reason}"
        );
        End { outcome, reason }
    }
}

/// What a diagram should show beyond the position itself.
#[derive(Clone, Debug, Default)]
pub struct View {
    /// The move that led to this position, marked on the board.
    pub last: Option<Notation>,
    /// Draw the board from this side's seat: games with a home edge turn
    /// it 180° for side A, whose pieces start at the top, so that every
    /// player sees their own side at the bottom; `None`: the standard
    /// orientation (square 1 at the top left).
    pub seat: Option<Side>,
    /// Moves played so far (for the caption).
    pub ply: usize,
    /// How the game ended off the board (a resignation, an agreed draw, a
    /// timeout): the caption then says so instead of naming a side to play.
    pub ended: Option<End>,
}

/// A game's rules: position, move generation, play, end, notation and
/// diagram. Implemented once per game in `src/games/`; everything generic
/// (resolution of notation, checked play, replay, perft, the conformance
/// suite) is written once against this trait.
pub trait Game: Clone + fmt::Debug + Send + Sync + 'static {
    /// A move, resolved against a position. Cheap to copy.
    type Move: Copy + Eq + Hash + fmt::Debug + Send + Sync;

    /// Which game this is: slug, names, geometry.
    const RULES: Rules;

    /// The setup of RULES.md, `first` to move. Games whose rules fix the
    /// first side ignore `first` (the record reader checks it).
    fn start(first: Side) -> Self;

    /// The side to move.
    fn turn(&self) -> Side;

    /// Appends every move the rules allow the side to move (in any order,
    /// no duplicates), without asking whether the game is already
    /// decided: [`Game::legal_moves`] does that once for every game.
    fn generate(&self, out: &mut Vec<Self::Move>);

    /// Counts what [`Game::generate`] would append; games may override it
    /// with something faster than generating (perft's last ply).
    fn count_generated(&self) -> usize {
        let mut v = Vec::new();
        self.generate(&mut v);
        v.len()
    }

    /// Appends every legal move to `out` (in any order, no duplicates).
    /// Appends nothing when the game is over, whether by a rule checked
    /// after the last move ([`Game::decided`]) or because the side to move
    /// is stuck.
    fn legal_moves(&self, out: &mut Vec<Self::Move>) {
        if self.decided().is_none() {
            self.generate(out);
        }
    }

    /// Plays a move from [`Game::legal_moves`]. Anything else is a bug in
    /// the caller; it must not panic, but the position is then unspecified.
    fn play_unchecked(&mut self, mv: Self::Move);

    /// The end the rules declare after the last move (a win, a score, a
    /// draw by count). "No legal move loses" (RULES.md, Common ground) is
    /// added by [`outcome`], so games need not check it here.
    fn decided(&self) -> Option<End>;

    /// The canonical notation of `mv`, in this position (before the move).
    fn notation(&self, mv: Self::Move) -> Notation;

    /// Why `n` matches no legal move here, in words for a player: the rule
    /// and the facts behind it ("22 holds no black tower (black towers: 1,
    /// 3, 5)"), and the section of the game's rules (`pbem rules GAME`)
    /// that says so. Called only when the game is not over and nothing
    /// matched.
    fn explain(&self, n: &Notation) -> Explanation;

    /// Rewrites equivalent forms of a move before matching (M.A.D.'s `:4`
    /// for a whole stack of 4). Most games need nothing.
    fn normalize(&self, n: Notation) -> Notation {
        n
    }

    /// The ASCII board for a plain-text email: at most 72 columns, empty
    /// squares show their numbers, a legend, the side to move, the score,
    /// the last move marked.
    fn diagram(&self, view: &View) -> String;

    /// Counts legal moves: none once the game is decided.
    fn count_moves(&self) -> usize {
        if self.decided().is_some() {
            0
        } else {
            self.count_generated()
        }
    }
}

/// The side's name in this game ("black", "guerrilla").
pub fn side_name<G: Game>(side: Side) -> &'static str {
    G::RULES.side_name(side)
}

/// The end of the game in this position, if it is over: what the last move
/// decided, else a loss for a side to move that has no legal move
/// (RULES.md, Common ground: "a player who has no legal move on their turn
/// loses the game").
pub fn outcome<G: Game>(pos: &G) -> Option<End> {
    if let Some(end) = pos.decided() {
        return Some(end);
    }
    if pos.count_moves() == 0 {
        let side = pos.turn();
        return Some(End::win(
            side.other(),
            format!("{} has no legal move", side_name::<G>(side)),
        ));
    }
    None
}

/// The legal moves with their canonical notation, in a stable order
/// (by squares), for listing to players and scripts.
pub fn listed_moves<G: Game>(pos: &G) -> Vec<(G::Move, Notation)> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut listed: Vec<(G::Move, Notation)> =
        moves.into_iter().map(|m| (m, pos.notation(m))).collect();
    listed.sort_by_cached_key(|(_, n)| sort_key(n));
    listed
}

fn sort_key(n: &Notation) -> (u8, Vec<u16>, bool, bool, u8) {
    match n {
        Notation::Path(p) => {
            let mut k = vec![p.from.number()];
            k.extend(p.to.iter().map(|s| s.number()));
            (0, k, p.lunge, p.off, p.count.unwrap_or(0))
        }
        Notation::Stones(points) => (
            1,
            points.iter().map(|p| p.0 as u16).collect(),
            false,
            false,
            0,
        ),
    }
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
    pub fn parse(text: &str, geometry: Geometry) -> Result<Origin, String> {
        Origin::read(text, geometry, None)
    }

    /// [`Origin::parse`] in game `rules`: a point only where the game
    /// places stones, and hints that quote the game's own moves.
    ///
    /// # Errors
    /// A message saying what to write instead.
    pub fn parse_for(text: &str, rules: Rules) -> Result<Origin, String> {
        Origin::read(text, rules.geometry(), Some(rules.examples()))
    }

    fn read(text: &str, geometry: Geometry, examples: Option<&[&str]>) -> Result<Origin, String> {
        // Characters as every reader takes them (issue 14): `１２` is 12.
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
                Ok(_) => Err(format!("give one point, like {point}")),
                Err(e) => Err(e.explain(examples)),
            };
        }
        match text.trim().parse::<u32>() {
            Ok(n) if geometry.contains_number(n) => {
                Ok(Origin::Square(crate::geom::Sq((n - 1) as u8)))
            }
            Ok(n) => Err(format!(
                "there is no square {n}: squares are 1-{}",
                geometry.squares()
            )),
            Err(_) => Err("give a square number, like 22".into()),
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

/// Why a move is not legal: the words for the player, and the section of
/// the game's complete rules (`pbem rules GAME`) that the refusal rests
/// on. Made by a game's `Section::says`, so that a refusal can cite only
/// a section its rules text has (see [`crate::sections!`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Explanation {
    /// A title in [`crate::rules::RulesInfo::sections`].
    pub section: &'static str,
    pub text: String,
}

impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// The section of every game's rules that says how moves are written
/// (`pbem rules GAME`): what a syntax error cites.
pub const NOTATION: &str = "Notation";

/// Why a move was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveError {
    /// Not a move at all.
    Syntax(ParseError),
    /// The game is already over.
    GameOver(End),
    /// Well-formed, but not legal here.
    Illegal {
        /// The side to move.
        side: &'static str,
        /// The rule it breaks and the facts behind it.
        reason: String,
        /// The section of the game's rules that says so.
        section: &'static str,
        /// The legal moves from the same origin, canonical.
        alternatives: Vec<String>,
    },
    /// Matches several legal moves once its capture mark is ignored.
    Ambiguous { candidates: Vec<String> },
}

/// A refused move with the text the player wrote and the game it was
/// written in, for messages: a syntax error's hints quote that game's own
/// example moves ([`crate::rules::RulesInfo::examples`]).
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
    pub fn cite(&self) -> Option<crate::rules::Cite> {
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

/// "1, 3, 5" for squares and the like.
pub fn join_list<T: fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    items
        .into_iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Finds the legal move that `n` names.
///
/// An exact match wins; failing that, a move written with the wrong capture
/// mark is accepted when exactly one legal move matches it (RULES.md,
/// "Canonical notation").
///
/// # Errors
/// [`MoveError::GameOver`], [`MoveError::Ambiguous`], or
/// [`MoveError::Illegal`] with the game's explanation and the legal moves
/// from the same square.
pub fn resolve<G: Game>(pos: &G, n: &Notation) -> Result<G::Move, MoveError> {
    if let Some(end) = outcome(pos) {
        return Err(MoveError::GameOver(end));
    }
    let n = pos.normalize(n.clone());
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut loose = Vec::new();
    for &m in &moves {
        let written = pos.notation(m);
        if written == n {
            return Ok(m);
        }
        if written.same_ignoring_capture(&n) {
            loose.push((m, written));
        }
    }
    let geometry = G::RULES.geometry();
    match loose.len() {
        1 => Ok(loose[0].0),
        0 => {
            let origin = match &n {
                Notation::Path(p) => Some(p.from),
                Notation::Stones(s) => s.first().map(|p| geometry.point_square(*p)),
            };
            let alternatives = listed_moves(pos)
                .into_iter()
                .filter(|(_, w)| match (&n, w) {
                    (Notation::Path(_), Notation::Path(p)) => Some(p.from) == origin,
                    (Notation::Stones(a), Notation::Stones(b)) => a.first() == b.first(),
                    _ => false,
                })
                .map(|(_, w)| w.canonical(geometry))
                .collect();
            let why = pos.explain(&n);
            Err(MoveError::Illegal {
                side: side_name::<G>(pos.turn()),
                reason: why.text,
                section: why.section,
                alternatives,
            })
        }
        _ => Err(MoveError::Ambiguous {
            candidates: loose.iter().map(|(_, w)| w.canonical(geometry)).collect(),
        }),
    }
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

/// The canonical text of a legal move.
pub fn canonical<G: Game>(pos: &G, mv: G::Move) -> String {
    pos.notation(mv).canonical(G::RULES.geometry())
}

/// Counts the leaf nodes `depth` moves deep (perft). Finished games have no
/// children; the last ply is counted without playing it.
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.count_moves() as u64;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut total = 0;
    for m in moves {
        let mut next = pos.clone();
        next.play_unchecked(m);
        total += perft(&next, depth - 1);
    }
    total
}

/// The geometry of game `G`, for code that only has the type.
pub fn geometry<G: Game>() -> Geometry {
    G::RULES.geometry()
}

/// Plays seeded random legal moves from the start until the game ends or
/// `max_plies` moves are played; returns the moves. Used by the
/// conformance suite, the benchmarks and to make example games.
pub fn random_game<G: Game>(first: Side, seed: u64, max_plies: usize) -> (G, Vec<G::Move>) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut pos = G::start(first);
    let mut played = Vec::new();
    let mut moves = Vec::new();
    while played.len() < max_plies {
        moves.clear();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.usize(..moves.len())];
        pos.play_unchecked(m);
        played.push(m);
    }
    (pos, played)
}

/// The sides that may move first in game `G`.
pub fn first_sides<G: Game>() -> Vec<Side> {
    match G::RULES.fixed_first() {
        Some(s) => vec![s],
        None => Side::BOTH.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_match_by_notation_not_by_text() {
        let g = Geometry::EIGHT;
        let twelve = Origin::parse("12", g).unwrap();
        // A lunge starts on 12 though its text starts with `L`.
        assert!(twelve.starts(&notation::parse("L12-28", g).unwrap(), g));
        assert!(!twelve.starts(&notation::parse("2-10", g).unwrap(), g));
        let point = Origin::parse("28/35", g).unwrap();
        assert!(point.starts(&notation::parse("27/36,28/37", g).unwrap(), g));
        assert!(Origin::parse("65", g).unwrap_err().contains("no square 65"));
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
                messages.push(e);
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
