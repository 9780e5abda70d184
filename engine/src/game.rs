//! The [`Game`] trait that all eight games implement, and the generic code
//! built on it: resolving notation against a position, perft, random
//! games, and the errors of resolution. Below the games; parsing a
//! player's text and the refusal they read are [`crate::play`], above
//! [`crate::rules`].

use crate::descriptor::{Rules, RulesInfo};
use crate::geom::{Geometry, Sq};
pub use crate::notation::join_or;
use crate::notation::{Notation, ParseError};
pub use crate::side::{PerSide, Side};
use std::fmt;
use std::hash::Hash;

/// How a finished game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    Win(Side),
    Draw,
}

/// A finished game: the outcome and why, in words for the players
/// ("red has no tower left; black scored 6, red 3"). Mails and commands
/// show the reason in parentheses, so it has none of its own
/// ("(... red 0 (6 or more wins))" otherwise).
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

    /// Which game this is (its identity, as records and mails name it).
    const RULES: Rules;

    /// The game's facts: names, sides, notation forms, rules text
    /// (`games/<game>/facts.rs`).
    const INFO: &'static RulesInfo;

    /// The setup of the game's rules document, `first` to move. Games whose rules fix the
    /// first side ignore `first` (the record reader checks it).
    fn start(first: Side) -> Self;

    /// The side to move.
    fn turn(&self) -> Side;

    /// Visits every move the rules allow the side to move (in any order,
    /// no duplicates), without asking whether the game is already
    /// decided: [`Game::legal_moves`] does that once for every game. The
    /// one required move generator: listing ([`Game::generate`]) and
    /// counting ([`Game::count_generated`]) are built on it.
    fn each_move(&self, visit: impl FnMut(Self::Move));

    /// Appends what [`Game::each_move`] visits; games may override it
    /// with something that writes the list directly.
    fn generate(&self, out: &mut Vec<Self::Move>) {
        self.each_move(|m| out.push(m));
    }

    /// Counts what [`Game::each_move`] visits; games may override it with
    /// something faster than visiting (perft's last ply).
    fn count_generated(&self) -> usize {
        let mut n = 0;
        self.each_move(|_| n += 1);
        n
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
    /// draw by count). "No legal move loses" (docs/src/rules/common.md, "Common
    /// ground") is added by [`outcome`], so games need not check it here.
    fn decided(&self) -> Option<End>;

    /// The canonical notation of `mv`, in this position (before the move).
    fn notation(&self, mv: Self::Move) -> Notation;

    /// The square [`Game::notation`] writes `mv` from (`Path::from`), told
    /// without writing the notation; `None` when the move has no such
    /// square (a guerrilla's stones) or the game does not say. A move
    /// whose origin is not the written move's cannot match it, so
    /// [`resolve`] writes out only the moves of the piece named. The
    /// conformance suite checks it against the notation.
    fn origin(&self, _mv: Self::Move) -> Option<Sq> {
        None
    }

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
    /// the last move marked. The drawing of [`Game::board`] between
    /// [`Game::diagram_words`]; `crate::diagram::Diagram` keeps the
    /// parts apart for a caller that needs them too.
    /// Every game's is `crate::diagram::Diagram::of(self, view).text()`
    /// (the diagram module draws on this trait, so it cannot be the
    /// default here).
    fn diagram(&self, view: &View) -> String;

    /// The words of [`Game::diagram`] around its ASCII board: the caption,
    /// the counts, the legend.
    fn diagram_words(&self, view: &View) -> crate::board::Words;

    /// The board of [`Game::diagram`] as data: what each square
    /// and crossing shows, for the ASCII board, the mail's HTML table and
    /// SVG ([`crate::board`]).
    fn board(&self, view: &View) -> crate::board::Board;

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
    G::INFO.side_name(side)
}

/// The end of the game in this position, if it is over: what the last move
/// decided, else a loss for a side to move that has no legal move
/// (docs/src/rules/common.md, "Common ground": "a player who has no legal move
/// on their turn loses the game").
pub fn outcome<G: Game>(pos: &G) -> Option<End> {
    if let Some(end) = pos.decided() {
        return Some(end);
    }
    if pos.count_moves() == 0 {
        return Some(no_legal_move(pos));
    }
    None
}

/// The end of a game whose side to move has no legal move: a loss for it.
fn no_legal_move<G: Game>(pos: &G) -> End {
    let side = pos.turn();
    End::win(
        side.other(),
        format!("{} has no legal move", side_name::<G>(side)),
    )
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

/// The first of [`listed_moves`] alone (an example of the notation),
/// without sorting the rest. The list goes by the square a move is
/// written from first: when the game tells every move's
/// ([`Game::origin`]), only the moves from the lowest are written out.
pub fn first_listed<G: Game>(pos: &G) -> Option<Notation> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let origin = |m: G::Move| pos.origin(m).map(|sq| sq.number());
    let lowest = moves
        .iter()
        .map(|&m| origin(m))
        .collect::<Option<Vec<u16>>>()
        .and_then(|all| all.into_iter().min());
    moves
        .into_iter()
        .filter(|&m| lowest.is_none_or(|low| origin(m) == Some(low)))
        .map(|m| pos.notation(m))
        .min_by_key(sort_key)
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

/// Why a move is not legal: the words for the player, and the section of
/// the game's complete rules (`pbem rules GAME`) that the refusal rests
/// on. Made by a game's `Section::says`, so that a refusal can cite only
/// a section its rules text has (see [`crate::sections!`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Explanation {
    /// A title in [`RulesInfo::sections`].
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

/// "1, 3, 5" for squares and the like.
pub fn join_list<T: fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    items
        .into_iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Room for the legal moves of most positions, made once: a list grown
/// from empty is copied several times over for every move replayed.
const MOVES_AT_ONCE: usize = 64;

/// Finds the legal move that `n` names.
///
/// An exact match wins; failing that, a move written with the wrong capture
/// mark is accepted when exactly one legal move matches it (`docs/src/rules/common.md`,
/// "Canonical notation").
///
/// # Errors
/// [`MoveError::GameOver`], [`MoveError::Ambiguous`], or
/// [`MoveError::Illegal`] with the game's explanation and the legal moves
/// from the same square.
pub fn resolve<G: Game>(pos: &G, n: &Notation) -> Result<G::Move, MoveError> {
    // As [`outcome`], with the moves generated once: the list that is
    // matched below is also the one found empty.
    if let Some(end) = pos.decided() {
        return Err(MoveError::GameOver(end));
    }
    let mut moves = Vec::with_capacity(MOVES_AT_ONCE);
    pos.legal_moves(&mut moves);
    if moves.is_empty() {
        return Err(MoveError::GameOver(no_legal_move(pos)));
    }
    let n = pos.normalize(n.clone());
    let from = match &n {
        Notation::Path(p) => Some(p.from),
        Notation::Stones(_) => None,
    };
    let mut loose = Vec::new();
    for &m in &moves {
        // Both matches below need the same origin.
        if let (Some(from), Some(origin)) = (from, pos.origin(m))
            && origin != from
        {
            continue;
        }
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
    match G::INFO.fixed_first {
        Some(s) => vec![s],
        None => Side::BOTH.to_vec(),
    }
}
