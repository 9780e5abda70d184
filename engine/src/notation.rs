//! Move notation: the syntax of every accepted form, and the canonical form
//! that pbem writes (docs/src/rules/common.md, "Canonical notation").
//!
//! Parsing needs only the board's geometry, never a position: `22x15` is a
//! well-formed move whether or not anything stands on 22. Whether a parsed
//! [`Notation`] names a legal move is decided by [`crate::game::resolve`].

use crate::geom::{Geometry, Point, Sq};
use std::fmt;

/// A move as written, before it is checked against a position.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Notation {
    /// `22-15`, `22x15`, `22x36x50`, `22-off`, `12-20:2`, `L12-28`.
    Path(Path),
    /// Guerrilla stones: `27/36,28/37`, or a lone winning stone `27/36`.
    Stones(Vec<Point>),
}

/// A move along squares.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Path {
    /// M.A.D.'s lunge prefix `L`.
    pub lunge: bool,
    pub from: Sq,
    /// The squares landed on, in order; empty for a move off the board.
    pub to: Vec<Sq>,
    /// The piece leaves the board (`22-off`).
    pub off: bool,
    /// Written with `x`: the move captures, booms or attacks.
    pub capture: bool,
    /// M.A.D.'s `:k`, the number of checkers moved.
    pub count: Option<u8>,
}

impl Path {
    pub fn step(from: Sq, to: Sq, capture: bool) -> Path {
        Path {
            lunge: false,
            from,
            to: vec![to],
            off: false,
            capture,
            count: None,
        }
    }
    pub fn off(from: Sq) -> Path {
        Path {
            lunge: false,
            from,
            to: Vec::new(),
            off: true,
            capture: false,
            count: None,
        }
    }
    pub fn chain(from: Sq, to: Vec<Sq>) -> Path {
        Path {
            lunge: false,
            from,
            to,
            off: false,
            capture: true,
            count: None,
        }
    }
}

impl Notation {
    pub fn step(from: Sq, to: Sq, capture: bool) -> Notation {
        Notation::Path(Path::step(from, to, capture))
    }
    pub fn off(from: Sq) -> Notation {
        Notation::Path(Path::off(from))
    }
    /// The square a path starts from.
    pub fn from(&self) -> Option<Sq> {
        match self {
            Notation::Path(p) => Some(p.from),
            Notation::Stones(_) => None,
        }
    }
    /// The same move with the capture mark ignored: a capture written with
    /// `-` is accepted when exactly one legal move matches it this way
    /// (docs/src/rules/common.md, "Canonical notation").
    pub fn same_ignoring_capture(&self, other: &Notation) -> bool {
        match (self, other) {
            (Notation::Path(a), Notation::Path(b)) => {
                a.lunge == b.lunge
                    && a.from == b.from
                    && a.to == b.to
                    && a.off == b.off
                    && a.count == b.count
            }
            (a, b) => a == b,
        }
    }
    /// Writes the canonical form. Guerrilla points need the geometry for
    /// their names, so this is not `Display`.
    pub fn canonical(&self, geometry: Geometry) -> String {
        let mut s = String::new();
        self.write_canonical(geometry, &mut s);
        s
    }
    pub fn write_canonical(&self, geometry: Geometry, out: &mut String) {
        use std::fmt::Write;
        match self {
            Notation::Path(p) => {
                if p.lunge {
                    out.push('L');
                }
                let _ = write!(out, "{}", p.from);
                if p.off {
                    out.push_str("-off");
                }
                let sep = if p.capture { 'x' } else { '-' };
                for s in &p.to {
                    out.push(sep);
                    let _ = write!(out, "{s}");
                }
                if let Some(k) = p.count {
                    let _ = write!(out, ":{k}");
                }
            }
            Notation::Stones(points) => {
                for (i, p) in points.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&geometry.point_name(*p));
                }
            }
        }
    }
    /// The squares a diagram marks for this move: origin and landings, or
    /// the squares at the top-left of each stone's point.
    pub fn squares(&self) -> Vec<Sq> {
        match self {
            Notation::Path(p) => std::iter::once(p.from)
                .chain(p.to.iter().copied())
                .collect(),
            Notation::Stones(_) => Vec::new(),
        }
    }
}

/// Why a text is not a move at all (syntax only).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseError {
    /// The text as given, trimmed.
    pub input: String,
    pub kind: ParseErrorKind,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ParseErrorKind {
    Empty,
    /// A character that belongs in no move.
    Unexpected(char),
    /// A square number outside the board.
    OffBoard(u32),
    /// Something missing at the end: "a square after `-`".
    Incomplete(&'static str),
    /// `22xoff`: a move off the board captures nothing.
    OffWithCapture,
    /// `22-off-15`, `22-off:2`.
    AfterOff,
    /// `:0`, `:12`.
    BadCount(u32),
    /// `27/30`: two squares that do not meet at an interior point.
    NotAPoint(u32, u32),
    /// More than two stones in one turn.
    TooManyStones(usize),
}

/// The hint where no game is known (a bare parse, with only a board's
/// geometry): `A-B` is the one form every game has (`docs/src/rules/common.md`,
/// "Canonical notation"), so it misleads no player.
pub const ANY_GAME_EXAMPLES: &[&str] = &["22-15"];

/// "like 22-15, 22x15 or 22-off".
pub fn like(examples: &[&str]) -> String {
    let all: Vec<String> = examples.iter().map(|e| e.to_string()).collect();
    format!("like {}", join_or(&all))
}

impl ParseError {
    /// The error in words for a player of a game whose moves look like
    /// `examples` (canonical, one per form: [`crate::rules::RulesInfo::examples`]).
    /// Parsing knows no game, so the same [`ParseErrorKind`] reads
    /// differently per game: every hint quotes only forms found among
    /// `examples`, and a form the game lacks (`off`, `:2`, points) is
    /// refused as foreign to the game rather than mended. `None`: no game
    /// is known; the hints then name only `A-B`, and the facts.
    pub fn explain(&self, examples: Option<&[&str]>) -> String {
        use ParseErrorKind::*;
        let input = &self.input;
        let write = format!(
            "write a move {}",
            like(examples.unwrap_or(ANY_GAME_EXAMPLES))
        );
        let not = |what: &str| format!("`{input}` is not a move: {what}");
        let hinted = |what: &str| format!("`{input}` is not a move: {what}; {write}");
        // The game's example of a form, if it has one.
        let has = |form: &dyn Fn(&str) -> bool| {
            examples.and_then(|ex| ex.iter().copied().find(|e| form(e)))
        };
        let off = has(&|e| e.ends_with("-off"));
        let count = has(&|e| e.contains(':'));
        let stones = has(&|e| e.contains('/'));
        // A mark of a form the game lacks: say so rather than mend it.
        let foreign = examples.and_then(|_| {
            let lower = input.to_lowercase();
            [
                (
                    stones.is_none() && lower.contains('/'),
                    "no move of this game is written with `/`",
                ),
                (
                    count.is_none() && lower.contains(':'),
                    "no move of this game counts checkers with `:`",
                ),
                (
                    off.is_none() && lower.contains("off"),
                    "no piece leaves the board in this game",
                ),
            ]
            .into_iter()
            .find_map(|(mark, why)| mark.then_some(why))
        });
        if let Some(foreign) = foreign
            && self.kind != Empty
        {
            return hinted(foreign);
        }
        match &self.kind {
            Empty => format!("no move given: {write}"),
            Unexpected(c) => hinted(&crate::glyph::unexpected(*c)),
            OffBoard(n) => not(&format!("there is no square {n} on this board")),
            Incomplete(what) => hinted(&format!("{what} is missing")),
            OffWithCapture => not(&match off {
                Some(off) => format!("a move off the board captures nothing; write it like {off}"),
                None => "a move off the board captures nothing".into(),
            }),
            AfterOff => not(&match off {
                Some(off) => format!("nothing may follow `off`; write it like {off}"),
                None => "nothing may follow `off`".into(),
            }),
            BadCount(k) => not(&match count {
                Some(count) => {
                    format!("`:{k}` is not a number of checkers (1 to 4); write it like {count}")
                }
                None => format!("`:{k}` is not a number of checkers (1 to 4)"),
            }),
            NotAPoint(a, b) => not(&match stones {
                Some(stones) => format!(
                    "squares {a} and {b} do not meet at a point inside the board; name a point by two squares touching it diagonally, like {}",
                    stones.split(',').next().unwrap_or(stones)
                ),
                None => format!("squares {a} and {b} do not meet at a point inside the board"),
            }),
            TooManyStones(n) => not(&match stones {
                Some(stones) => format!("{n} stones; a turn places two stones, like {stones}"),
                None => format!("{n} stones; a turn places at most two"),
            }),
        }
    }
}

/// Without a game: the facts, and hints naming only `A-B`
/// ([`ParseError::explain`] with `None`).
impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.explain(None))
    }
}

impl std::error::Error for ParseError {}

/// Parses any accepted form of a move on a board of `geometry`.
///
/// Accepted beyond the canonical form (docs/src/rules/common.md, "Canonical notation"):
/// surrounding and inner spaces, upper case, `X` for `x`, `–`/`—` for `-`,
/// `OFF`, a lower-case lunge prefix, either diagonal name of a point.
///
/// # Errors
/// [`ParseError`] quoting the input, with a hint of the right form.
pub fn parse(text: &str, geometry: Geometry) -> Result<Notation, ParseError> {
    let input = text.trim();
    let err = |kind| ParseError {
        input: input.to_string(),
        kind,
    };
    let norm = normalize(input);
    if norm.is_empty() {
        return Err(err(ParseErrorKind::Empty));
    }
    if norm.contains('/') {
        return parse_stones(&norm, geometry).map_err(err);
    }
    let mut chars = norm.chars().peekable();
    let lunge = chars.peek() == Some(&'l');
    if lunge {
        chars.next();
    }
    let number = |chars: &mut Chars<'_>, what| read_square(chars, geometry, what);
    let from = number(&mut chars, "the square to move from").map_err(err)?;
    let mut path = Path {
        lunge,
        from,
        to: Vec::new(),
        off: false,
        capture: false,
        count: None,
    };
    loop {
        match chars.next() {
            None => break,
            Some(sep @ ('-' | 'x')) => {
                if path.off {
                    return Err(err(ParseErrorKind::AfterOff));
                }
                // Three characters ahead, not the rest copied (which made a
                // long `1-2-1-2-...` line quadratic).
                if chars.clone().take(3).eq("off".chars()) {
                    if sep == 'x' {
                        return Err(err(ParseErrorKind::OffWithCapture));
                    }
                    if !path.to.is_empty() {
                        return Err(err(ParseErrorKind::AfterOff));
                    }
                    for _ in 0..3 {
                        chars.next();
                    }
                    path.off = true;
                    continue;
                }
                if sep == 'x' {
                    path.capture = true;
                }
                let what = if sep == 'x' {
                    "a square after `x`"
                } else {
                    "a square after `-`"
                };
                path.to.push(number(&mut chars, what).map_err(err)?);
            }
            Some(':') => {
                if path.off {
                    return Err(err(ParseErrorKind::AfterOff));
                }
                let k = read_count(&mut chars).map_err(err)?;
                path.count = Some(k);
                if let Some(&c) = chars.peek() {
                    return Err(err(ParseErrorKind::Unexpected(c)));
                }
            }
            Some(c) => return Err(err(ParseErrorKind::Unexpected(c))),
        }
    }
    if path.to.is_empty() && !path.off {
        return Err(err(ParseErrorKind::Incomplete("the square to move to")));
    }
    Ok(Notation::Path(path))
}

type Chars<'a> = std::iter::Peekable<std::str::Chars<'a>>;

/// The text as the parser reads it: characters folded as mail reads them,
/// lower case, dashes made `-`, and every space dropped, but for stones a
/// space between two points separates them as a comma does (`27/36
/// 28/37`), rather than gluing 36 and 28 into 3628.
fn normalize(input: &str) -> String {
    // Characters as mail reads them (crate::glyph): fullwidth digits are
    // digits here too, and what shows nothing is nothing.
    let folded: String = input.chars().filter_map(crate::glyph::fold).collect();
    let stones = folded.contains('/');
    let mut norm = String::with_capacity(folded.len());
    let mut gap = false;
    for c in folded.chars() {
        if c.is_whitespace() {
            gap = true;
            continue;
        }
        let c = crate::glyph::move_char(c);
        if gap && stones && c.is_ascii_digit() && norm.ends_with(|p: char| p.is_ascii_digit()) {
            norm.push(',');
        }
        gap = false;
        norm.push(c);
    }
    norm
}

/// A square number, which `what` names in the error when it is missing.
fn read_square(
    chars: &mut Chars<'_>,
    geometry: Geometry,
    what: &'static str,
) -> Result<Sq, ParseErrorKind> {
    let mut n: u32 = 0;
    let mut digits = 0;
    while let Some(&c) = chars.peek() {
        if let Some(d) = c.to_digit(10) {
            n = n.saturating_mul(10).saturating_add(d);
            digits += 1;
            chars.next();
        } else {
            break;
        }
    }
    if digits == 0 {
        return Err(match chars.peek() {
            Some(&c) => ParseErrorKind::Unexpected(c),
            None => ParseErrorKind::Incomplete(what),
        });
    }
    if !geometry.contains_number(n) {
        return Err(ParseErrorKind::OffBoard(n));
    }
    Ok(Sq((n - 1) as u8))
}

/// The count after `:` (1 to 4), the last thing in a move.
fn read_count(chars: &mut Chars<'_>) -> Result<u8, ParseErrorKind> {
    let mut k: u32 = 0;
    let mut digits = 0;
    while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
        k = k.saturating_mul(10).saturating_add(d);
        digits += 1;
        chars.next();
    }
    if digits == 0 {
        return Err(match chars.peek() {
            Some(&c) => ParseErrorKind::Unexpected(c),
            None => ParseErrorKind::Incomplete("a number of checkers after `:`"),
        });
    }
    if !(1..=4).contains(&k) {
        return Err(ParseErrorKind::BadCount(k));
    }
    Ok(k as u8)
}

fn parse_stones(norm: &str, geometry: Geometry) -> Result<Notation, ParseErrorKind> {
    let parts: Vec<&str> = norm.split([',', ';', '+', '&']).collect();
    if parts.len() > 2 {
        return Err(ParseErrorKind::TooManyStones(parts.len()));
    }
    let mut points = Vec::with_capacity(2);
    for part in parts {
        let Some((a, b)) = part.split_once('/') else {
            return Err(match part.chars().find(|c| !c.is_ascii_digit()) {
                Some(c) => ParseErrorKind::Unexpected(c),
                None => ParseErrorKind::Incomplete("a point (two squares joined by `/`)"),
            });
        };
        let num = |t: &str| -> Result<u32, ParseErrorKind> {
            if t.is_empty() {
                return Err(ParseErrorKind::Incomplete("a square of a point"));
            }
            if let Some(c) = t.chars().find(|c| !c.is_ascii_digit()) {
                return Err(ParseErrorKind::Unexpected(c));
            }
            let n = t.parse::<u32>().unwrap_or(u32::MAX);
            if geometry.contains_number(n) {
                Ok(n)
            } else {
                Err(ParseErrorKind::OffBoard(n))
            }
        };
        let (na, nb) = (num(a)?, num(b)?);
        let p = geometry
            .point_between(Sq((na - 1) as u8), Sq((nb - 1) as u8))
            .ok_or(ParseErrorKind::NotAPoint(na, nb))?;
        points.push(p);
    }
    Ok(Notation::Stones(points))
}

/// "a, b or c".
pub fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(s: &str) -> String {
        parse(s, Geometry::EIGHT)
            .unwrap_or_else(|e| panic!("{e}"))
            .canonical(Geometry::EIGHT)
    }

    #[test]
    fn friendly_forms_become_canonical() {
        // docs/src/rules/common.md, "Canonical notation": spaces, upper case,
        // X, dashes, OFF.
        assert_eq!(canon(" 22-15 "), "22-15");
        assert_eq!(canon("22X15"), "22x15");
        assert_eq!(canon("22 – 15"), "22-15");
        assert_eq!(canon("22‒15"), "22-15");
        assert_eq!(canon("22﹣15"), "22-15");
        assert_eq!(canon("22—OFF"), "22-off");
        assert_eq!(canon("22x36X50"), "22x36x50");
        assert_eq!(canon("l12-28"), "L12-28");
        assert_eq!(canon("12-20:2"), "12-20:2");
        assert_eq!(canon("28/35, 37/28"), "27/36,28/37");
        assert_eq!(canon("036-015"), "36-15");
        // A space between two points separates them, as a comma does.
        assert_eq!(canon("27/36 28/37"), "27/36,28/37");
        assert_eq!(canon(" 27 / 36   28 / 37 "), "27/36,28/37");
        // As mail reads them: fullwidth forms, invisible marks.
        assert_eq!(canon("２２－１５"), "22-15");
        assert_eq!(canon("２７／３６　２８／３７"), "27/36,28/37");
        assert_eq!(canon("2\u{200B}2-1\u{202E}5"), "22-15");
    }

    #[test]
    fn a_lookalike_is_named_by_its_code_point() {
        let e = |s: &str| parse(s, Geometry::EIGHT).unwrap_err().to_string();
        assert_eq!(
            e("13х21"),
            "`13х21` is not a move: 'х' (U+0445) is not a character of moves, though it looks \
             like one; write a move like 22-15"
        );
    }

    #[test]
    fn bad_moves_say_why() {
        let e = |s: &str| parse(s, Geometry::EIGHT).unwrap_err().to_string();
        assert!(e("22-65").contains("no square 65"), "{}", e("22-65"));
        assert!(e("22-").contains("missing"));
        assert!(e("22xoff").contains("captures nothing"));
        assert!(e("hello").contains("`hello` is not a move"));
        assert!(e("").contains("no move given"));
        assert!(e("27/30").contains("do not meet"));
        assert!(e("12-20:9").contains(":9"));
        assert!(e("22").contains("square to move to"));
        assert!(parse("99-100", Geometry::TEN).is_ok());
    }

    #[test]
    fn hints_quote_only_the_forms_given() {
        let e = |s: &str| parse(s, Geometry::EIGHT).unwrap_err();
        // No game known: only `A-B`, which every game has.
        assert_eq!(
            e("hello").to_string(),
            "`hello` is not a move: unexpected 'h'; write a move like 22-15"
        );
        assert!(!e("22xoff").to_string().contains("like"));
        // A game without `off` hears that it has none, not how to write it.
        let rooks: &[&str] = &["18-42", "18x22"];
        assert_eq!(
            e("22xoff").explain(Some(rooks)),
            "`22xoff` is not a move: no piece leaves the board in this game; write a move like 18-42 or 18x22"
        );
        let bz: &[&str] = &["22-15", "22x15", "22-off"];
        assert_eq!(
            e("22xoff").explain(Some(bz)),
            "`22xoff` is not a move: a move off the board captures nothing; write it like 22-off"
        );
    }

    #[test]
    fn a_long_chain_parses_in_linear_time() {
        // Copying the rest of the text at every `-` made this quadratic:
        // hours for a few megabytes.
        let long = format!("1{}", "-2-1".repeat(500_000));
        let t = std::time::Instant::now();
        let n = parse(&long, Geometry::EIGHT).unwrap();
        assert_eq!(n.squares().len(), 1_000_001);
        assert!(t.elapsed().as_secs() < 5, "{:?}", t.elapsed());
    }
}
