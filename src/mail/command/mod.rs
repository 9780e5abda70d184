//! Commands in the body of a player's mail, one per line
//! (case-insensitive). Lines that are neither a
//! command nor look like a move are chatter ("Hi Bob!") and are ignored;
//! a line that looks like a move but is not one is an error to report
//! ([`read`]: how a mail's errors are typed, and which refuse it whole).

use crate::rules::Rules;
use crate::timecontrol::{DigestMode, TimeControl, parse_zone};
use chrono_tz::Tz;
use std::borrow::Cow;
use std::fmt;

/// Who moves first in a challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// The challenger moves first.
    First,
    /// The challenged player moves first.
    Second,
    Random,
}

/// Whom a challenge is to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// A player, by address.
    Player(String),
    /// pbem's own bot, at a level.
    Bot(pbem_engine::bot::Level),
}

impl fmt::Display for Opponent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Opponent::Player(a) => f.write_str(a),
            Opponent::Bot(level) => write!(f, "bot level {level}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `22-15`, `move 22-15`, `#12 22-15`: the move, and the move number it
    /// claims to be (so a stale or re-sent move is refused).
    Move {
        number: Option<u32>,
        text: String,
    },
    /// `challenge GAME ADDRESS [first|second|random] [TIME CONTROL]
    /// [series N] [unrated]`, or `challenge GAME bot [level N]`.
    Challenge {
        rules: Rules,
        opponent: Opponent,
        order: Order,
        /// `3d`, `3d+1d/10d weekends-free`: none, no clock.
        clock: Option<TimeControl>,
        /// `series 3`: best of 3; none, one game.
        series: Option<u32>,
        /// `unrated`: the game leaves the ratings alone.
        rated: bool,
    },
    /// `rematch`: after a game, the next one between the same players.
    Rematch,
    /// `analysis`: after a game, the bot's analysis of it, move by move.
    Analysis,
    /// `join NAME`: sign up for a tournament.
    Join(String),
    /// `leave NAME`: withdraw from a tournament (before it begins, or
    /// dropping out of it).
    Leave(String),
    /// `standings [NAME]`: a tournament's table (none: the tournament of
    /// the game the mail answers).
    Standings(Option<String>),
    /// `ratings [GAME]`: a game's ratings (none: the game the mail
    /// answers, else every game's).
    Ratings(Option<Rules>),
    Accept,
    Decline,
    Resign,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    /// `takeback`: take back my last move, if my opponent agrees.
    Takeback,
    AcceptTakeback,
    DeclineTakeback,
    Board,
    Moves {
        from: Option<String>,
    },
    Games,
    Rules {
        game: Option<Rules>,
    },
    Help,
    /// A player's secret, typed in the body instead of replying.
    Token(String),
    /// `timezone Europe/Berlin` (deadlines shown in it, weekends counted
    /// in it); `timezone utc` forgets it.
    Timezone(Option<Tz>),
    /// `vacation 7`: pause my clocks for 7 days; `vacation off`: back.
    Vacation(Option<u32>),
    /// `digest off|per-poll|daily 08:00`.
    Digest(DigestMode),
    /// `if 50-42 then 15-8 [if 42-35 then 8-1 ...]`: what to play at
    /// once if the opponent answers so, pair by pair (their move, mine).
    Condition(Vec<(String, String)>),
    /// `conditions`: the conditional moves I have set.
    Conditions,
    /// `cancel conditions`: drop them.
    CancelConditions,
}

impl Command {
    /// Whether the command would change a game's record (moves, draws,
    /// takebacks, resignation, the answer to a challenge): refused in a
    /// finished game, and what a refused mail leaves undone.
    pub fn changes_game(&self) -> bool {
        matches!(
            self,
            Command::Move { .. }
                | Command::Accept
                | Command::Decline
                | Command::Resign
                | Command::OfferDraw
                | Command::AcceptDraw
                | Command::DeclineDraw
                | Command::Takeback
                | Command::AcceptTakeback
                | Command::DeclineTakeback
        )
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Move {
                number: Some(n),
                text,
            } => write!(f, "#{n} {text}"),
            Command::Move { number: None, text } => write!(f, "{text}"),
            Command::Challenge {
                rules,
                opponent,
                order,
                clock,
                series,
                rated,
            } => {
                write!(
                    f,
                    "challenge {} {opponent} {}",
                    rules.slug(),
                    match order {
                        Order::First => "first",
                        Order::Second => "second",
                        Order::Random => "random",
                    }
                )?;
                if let Some(c) = clock {
                    write!(f, " {c}")?;
                }
                if let Some(n) = series {
                    write!(f, " series {n}")?;
                }
                if !rated {
                    f.write_str(" unrated")?;
                }
                Ok(())
            }
            Command::Rematch => f.write_str("rematch"),
            Command::Join(name) => write!(f, "join {name}"),
            Command::Leave(name) => write!(f, "leave {name}"),
            Command::Standings(Some(name)) => write!(f, "standings {name}"),
            Command::Standings(None) => f.write_str("standings"),
            Command::Ratings(Some(g)) => write!(f, "ratings {}", g.slug()),
            Command::Ratings(None) => f.write_str("ratings"),
            Command::Accept => f.write_str("accept"),
            Command::Decline => f.write_str("decline"),
            Command::Resign => f.write_str("resign"),
            Command::OfferDraw => f.write_str("draw"),
            Command::AcceptDraw => f.write_str("accept draw"),
            Command::DeclineDraw => f.write_str("decline draw"),
            Command::Takeback => f.write_str("takeback"),
            Command::AcceptTakeback => f.write_str("accept takeback"),
            Command::DeclineTakeback => f.write_str("decline takeback"),
            Command::Board => f.write_str("board"),
            Command::Analysis => f.write_str("analysis"),
            Command::Moves { from: Some(s) } => write!(f, "moves {s}"),
            Command::Moves { from: None } => f.write_str("moves"),
            Command::Games => f.write_str("games"),
            Command::Rules { game: Some(g) } => write!(f, "rules {}", g.slug()),
            Command::Rules { game: None } => f.write_str("rules"),
            Command::Help => f.write_str("help"),
            Command::Token(_) => f.write_str("token ..."),
            Command::Timezone(Some(z)) => write!(f, "timezone {}", z.name()),
            Command::Timezone(None) => f.write_str("timezone utc"),
            Command::Vacation(Some(d)) => write!(f, "vacation {d}"),
            Command::Vacation(None) => f.write_str("vacation off"),
            Command::Digest(m) => write!(f, "digest {m}"),
            Command::Condition(pairs) => f.write_str(&condition_text(pairs)),
            Command::Conditions => f.write_str("conditions"),
            Command::CancelConditions => f.write_str("cancel conditions"),
        }
    }
}

/// The example move of hints given before any game is known (a mail is
/// read before pbem looks up its game): `A-B`, the one form every game
/// has, so no player is told to write a form their game lacks.
fn example() -> &'static str {
    crate::notation::ANY_GAME_EXAMPLES[0]
}

/// `line` with the spaces around its move punctuation dropped, to glue
/// `22 - 15`, `22 - off` and `27 / 36` into one word before a line is
/// split into moves: what `(?i)\s*([-x×–—−‐‑‒―﹣:/])\s*` replaced by
/// `$1` gives, without a regex to compile and run over every line.
pub(crate) fn glue_marks(line: &str) -> Cow<'_, str> {
    if !line.contains(is_mark) {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut after_mark = false;
    for c in line.chars() {
        if is_mark(c) {
            out.truncate(out.trim_end().len());
            out.push(c);
            after_mark = true;
        } else if !(after_mark && c.is_whitespace()) {
            after_mark = false;
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A mark that joins the squares of a move (see [`glue_marks`]).
fn is_mark(c: char) -> bool {
    matches!(
        c,
        '-' | 'x' | 'X' | '×' | '–' | '—' | '−' | '‐' | '‑' | '‒' | '―' | '﹣' | ':' | '/'
    )
}

/// The moves a line holds when it holds nothing but moves, as written
/// (spaces glued): `22-15 23-16` and `50-51, 50-52` are two each. The
/// two points of one Guerrilla placement are one move, however they are
/// separated (`27/36,28/37`, `27/36, 28/37`, `27/36 28/37`). `None` for a
/// line with anything else in it (`13-21 please`, `13-x21`, a long line):
/// that is for [`move_like`] and the game to judge.
fn moves_in(line: &str) -> Option<Vec<String>> {
    if line.chars().nth(MAX_LINE).is_some() {
        return None;
    }
    moves_on(line)
}

/// [`moves_in`] for a line of any length: what a line too long to be a
/// command was (one move, or a list of them).
fn moves_on(line: &str) -> Option<Vec<String>> {
    moves_of_glued(&glue_marks(line))
}

/// [`moves_on`] of a line already glued ([`glue_marks`]).
fn moves_of_glued(glued: &str) -> Option<Vec<String>> {
    let mut moves: Vec<String> = Vec::new();
    let mut half: Option<&str> = None;
    for word in glued.split(|c: char| c.is_whitespace() || ",;&+".contains(c)) {
        if word.is_empty() {
            continue;
        }
        if point_word(word) {
            match half.take() {
                Some(first) => moves.push(format!("{first},{word}")),
                None => half = Some(word),
            }
            continue;
        }
        if !path_word(word) {
            return None;
        }
        if let Some(lone) = half.take() {
            moves.push(lone.to_string());
        }
        moves.push(word.to_string());
    }
    if let Some(lone) = half {
        moves.push(lone.to_string());
    }
    (!moves.is_empty()).then_some(moves)
}

/// The first two of `moves` for quoting, "22-15, 23-16, ..." when there
/// are more: a pasted list of moves is never quoted whole.
fn first_two(moves: &[String]) -> String {
    let mut quoted = moves.iter().take(2).cloned().collect::<Vec<_>>().join(", ");
    if moves.len() > 2 {
        quoted.push_str(", ...");
    }
    quoted
}

/// Refuses a move text that holds several moves: a mail plays one move
/// (the second would be the opponent's turn), and pbem must not guess
/// which one was meant.
fn one_move(text: &str) -> Result<(), MoveLineError> {
    match moves_in(text) {
        Some(moves) if moves.len() > 1 => Err(MoveLineError::Several(moves)),
        _ => Ok(()),
    }
}

/// A refused line for quoting in the reply and its subject: a line of
/// several moves (`#12 50-51, 50-52, 50-53, ...`) as its first two moves,
/// any other as written.
fn quoted(line: &str) -> String {
    let mut rest = line;
    for _ in 0..2 {
        if let Some((first, r)) = rest.split_once(char::is_whitespace)
            && (first.starts_with('#')
                || first.eq_ignore_ascii_case("move")
                || first.eq_ignore_ascii_case("play"))
        {
            rest = r.trim_start();
        }
    }
    match moves_in(rest) {
        Some(moves) if moves.len() > 1 => first_two(&moves),
        _ => line.to_string(),
    }
}

/// The form of the square after `moves`: 1 to 3 digits. Whether that
/// square is on the board is for the game to say.
fn square_word(word: &str) -> bool {
    (1..=3).contains(&word.len()) && word.bytes().all(|b| b.is_ascii_digit())
}

/// A word that would be a move but for a look-alike character (`13х21`
/// with a Cyrillic `х`, `¹³-²¹`): the first character no move holds, if
/// the word has a digit and is short.
fn lookalike(word: &str) -> Option<char> {
    if word.chars().nth(20).is_some() || !word.chars().any(char::is_numeric) {
        return None;
    }
    // ASCII letters only those of moves: `x`, `l`, `off`.
    if word
        .chars()
        .any(|c| c.is_ascii_alphabetic() && !"xXlLoOfF".contains(c))
    {
        return None;
    }
    // One look-alike makes a near miss; a word of several letters of
    // another script is a word (`于2026年11月20日周五` in a Chinese
    // attribution).
    let foreign = word
        .chars()
        .filter(|&c| !c.is_ascii() && !c.is_numeric() && !crate::glyph::is_move_mark(c))
        .count();
    if foreign > 1 {
        return None;
    }
    word.chars()
        .find(|&c| !c.is_ascii() && !crate::glyph::is_move_mark(c))
}

/// The longest line read as a command. The longest real command is a
/// challenge or a chain of jumps, well under 100 characters; a longer line
/// that would be one is refused, so no reply quotes a megabyte of it.
pub const MAX_LINE: usize = 200;

/// The most commands one mail may hold. Each can bring a reply (and a
/// challenge two, one to a new address): one mail must not become a storm
/// of mails. A mail with more is refused whole.
pub const MAX_COMMANDS: usize = 20;

/// `line` for quoting in a reply: a line longer than [`MAX_LINE`] is cut
/// to its first 60 characters.
fn shorten(line: &str) -> String {
    if line.chars().nth(MAX_LINE).is_none() {
        return line.to_string();
    }
    let cut = line.char_indices().nth(60).map_or(line.len(), |(i, _)| i);
    format!("{}...", &line[..cut])
}

/// Whether `line` starts with a label ([`shapes::label`]): only a line
/// with a colon can.
pub(crate) fn labelled(line: &str) -> bool {
    line.contains([':', '：']) && shapes::label(line)
}

/// The most words a command other than `challenge` takes, its move's
/// marks glued (`#12 22 - 15` is two): a longer line is a sentence that
/// happens to start like one (`#5 22-15. Other commands: board, ...`,
/// `moves 22 lists the moves from one square`), chatter.
const COMMAND_WORDS: usize = 4;

/// One line: `Ok(None)` for chatter.
pub fn parse_line(line: &str) -> Result<Option<Command>, LineError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = words.first() else {
        return Ok(None);
    };
    let head = &*crate::lines::lowercase(first);
    // Every word lowered, for a line that may be a command: a chain of
    // conditions, a line no longer than a command, one past the chatter
    // test (a sentence's words are not lowered in vain).
    let lowered = || -> Vec<String> { words.iter().map(|w| w.to_lowercase()).collect() };
    // Before the chatter test: a chain is a long line of moves and words.
    if head == "if" {
        return parse_condition(&words, &lowered());
    }
    let short = (words.len() <= COMMAND_WORDS).then(lowered);
    if let Some(c) = short.as_deref().and_then(conditions_command) {
        return Ok(Some(c));
    }
    if is_chatter(line, &words, head) {
        return Ok(None);
    }
    let lower = short.unwrap_or_else(lowered);
    let cmd = match head {
        h if h.starts_with('#') && h.len() > 1 => numbered_move(&words)?,
        // `play black`, `move on`: words, no move (a move has a digit).
        "move" | "play" if words.len() > 1 && !line.chars().any(|c| c.is_numeric()) => {
            return Ok(None);
        }
        "move" | "play" => plain_move(&words)?,
        "challenge" => return Ok(Some(parse_challenge(&words[1..])?)),
        "accept" | "accepted" | "decline" | "declined" | "refuse" => answer(head, &lower)?,
        "resign" | "resigns" | "resigned" if words.len() == 1 => Command::Resign,
        "draw" | "draw?" if words.len() == 1 => Command::OfferDraw,
        "offer" if lower.get(1).map(String::as_str) == Some("draw") && words.len() == 2 => {
            Command::OfferDraw
        }
        "takeback" | "takeback?" | "take-back" | "undo" if words.len() == 1 => Command::Takeback,
        "take" if words.len() == 2 && matches!(lower[1].as_str(), "back" | "back?") => {
            Command::Takeback
        }
        "board" | "show" if words.len() == 1 => Command::Board,
        // A square or nothing: `legal moves: 50-51` (a line of pbem's
        // reply, quoted back) is not `moves` from a square called
        // `moves:`.
        "moves" | "legal" => moves_from(head, &words)?,
        "games" if words.len() == 1 => Command::Games,
        "rematch" | "rematch?" if words.len() == 1 => Command::Rematch,
        "analysis" | "analyse" | "analyze" if words.len() == 1 => Command::Analysis,
        "join" | "leave" | "standings" => match tournament_command(head, &words)? {
            Some(c) => c,
            None => return Ok(None),
        },
        "ratings" | "rating" => Command::Ratings(game_named(&words)?),
        "rules" => Command::Rules {
            game: game_named(&words)?,
        },
        "help" | "help?" | "?" if words.len() == 1 => Command::Help,
        "timezone" | "tz" | "zone" => timezone(&words)?,
        "vacation" | "holiday" | "away" => vacation(&words, &lower)?,
        "digest" => Command::Digest(rest(&words, 1).parse::<DigestMode>()?),
        "token" | "secret" => match words.get(1) {
            Some(t) if words.len() == 2 => Command::Token(t.to_string()),
            _ => return Err(LineError::Token),
        },
        _ => return bare_moves(line),
    };
    Ok(Some(cmd))
}

/// Whether `line` (its `words`, the first lowercased `head`) is chatter
/// before any command is looked for in it.
fn is_chatter(line: &str, words: &[&str], head: &str) -> bool {
    // `rules = "mad"`, `moves = """`: a setting or a record's line (a game
    // record quoted back from a game-over mail), never a command; nor a
    // caption (`Legal moves: 50-26, 50-29`, `Your move: ...`).
    if words.get(1) == Some(&"=") || (labelled(line) && !said_move(head, words)) {
        return true;
    }
    // After `move` or `play`, the move's own words are counted, as when
    // it comes alone: `move X` is chatter exactly when `X` is.
    let (line, words) = match head {
        "move" | "play" => (after_first_word(line), &words[1..]),
        _ => (line, words),
    };
    if head == "challenge" || words.len() <= COMMAND_WORDS {
        return false;
    }
    let glued = glue_marks(line);
    glued.split_whitespace().nth(COMMAND_WORDS).is_some() && moves_of_glued(&glued).is_none()
}

/// `line` after its first word (`split_whitespace`'s).
fn after_first_word(line: &str) -> &str {
    let line = line.trim_start();
    let end = line.find(char::is_whitespace).unwrap_or(line.len());
    &line[end..]
}

/// `move 22-15:`, `play 12-20:`: a move after the word that says so,
/// with a stray colon at its end, which is no caption however a label
/// it looks: read as the move (and refused as written) like `22-15:`
/// alone.
fn said_move(head: &str, words: &[&str]) -> bool {
    matches!(head, "move" | "play") && {
        let rest = words[1..].join(" ");
        move_like(&rest)
    }
}

/// `accept` or `decline` (`head`), of a challenge (`accept`, `accept
/// challenge`), of a draw (`accept draw`) or of a takeback (`accept
/// takeback`, `accept take back`); `lower` is the line's words,
/// lowercased.
fn answer(head: &str, lower: &[String]) -> Result<Command, LineError> {
    let accept = matches!(head, "accept" | "accepted");
    let what: Vec<&str> = lower[1..].iter().map(String::as_str).collect();
    match (what.as_slice(), accept) {
        ([] | ["challenge"], true) => Ok(Command::Accept),
        ([] | ["challenge"], false) => Ok(Command::Decline),
        (["draw"], true) => Ok(Command::AcceptDraw),
        (["draw"], false) => Ok(Command::DeclineDraw),
        (["takeback" | "take-back"] | ["take", "back"], true) => Ok(Command::AcceptTakeback),
        (["takeback" | "take-back"] | ["take", "back"], false) => Ok(Command::DeclineTakeback),
        (_, true) => Err(LineError::Accept),
        (_, false) => Err(LineError::Decline),
    }
}

/// The game a command's words name after the command (`ratings draughts`,
/// `rules dragons teeth`); `None` when they name none.
fn game_named(words: &[&str]) -> Result<Option<Rules>, LineError> {
    let r = rest(words, 1);
    if r.is_empty() {
        return Ok(None);
    }
    Ok(Some(r.parse::<Rules>()?))
}

/// The words of a line from the `n`th on, joined by single spaces.
fn rest(words: &[&str], n: usize) -> String {
    words.get(n..).map(|w| w.join(" ")).unwrap_or_default()
}

/// `#12 e5` or `#12 move e5`: a move with its number.
fn numbered_move(words: &[&str]) -> Result<Command, MoveLineError> {
    let n: u32 = words[0][1..]
        .parse()
        .map_err(|_| MoveLineError::Number(words[0].to_string()))?;
    let mut r = rest(words, 1);
    if let Some(stripped) = strip_word(&r, "move") {
        r = stripped;
    }
    if r.is_empty() {
        return Err(MoveLineError::Numbered(n));
    }
    one_move(&r)?;
    Ok(Command::Move {
        number: Some(n),
        text: r,
    })
}

/// `move e5`, `play e5`.
fn plain_move(words: &[&str]) -> Result<Command, MoveLineError> {
    let r = rest(words, 1);
    if r.is_empty() {
        return Err(MoveLineError::Missing(words[0].to_string()));
    }
    one_move(&r)?;
    Ok(Command::Move {
        number: None,
        text: r,
    })
}

/// `moves`, `moves 22`: a square or nothing. `legal moves: 50-51` (a
/// line of pbem's reply, quoted back) is not `moves` from a square called
/// `moves:`.
fn moves_from(head: &str, words: &[&str]) -> Result<Command, LineError> {
    match &words[1..] {
        [] => Ok(Command::Moves { from: None }),
        [square] if square_word(square) => Ok(Command::Moves {
            from: Some(square.to_string()),
        }),
        more => {
            let head = head.to_string();
            Err(match more.iter().find(|w| !square_word(w)) {
                Some(word) => LineError::Square {
                    head,
                    word: shorten_word(word),
                },
                None => LineError::Squares { head },
            })
        }
    }
}

/// `join NAME`, `leave NAME`, `standings [NAME]`: a tournament's name is
/// one word of lower-case letters, digits and dashes. A longer line
/// (`leave it to me`) is chatter, `Ok(None)`.
fn tournament_command(head: &str, words: &[&str]) -> Result<Option<Command>, LineError> {
    let name = match words {
        [_] if head == "standings" => return Ok(Some(Command::Standings(None))),
        [_] => {
            let head = head.to_string();
            return Err(LineError::NoTournament { head });
        }
        [_, name] => name.to_lowercase(),
        _ => return Ok(None),
    };
    if !crate::store::valid_id(&name) {
        return Err(LineError::Tournament {
            head: head.to_string(),
            name: shorten_word(&name),
        });
    }
    Ok(Some(match head {
        "join" => Command::Join(name),
        "leave" => Command::Leave(name),
        _ => Command::Standings(Some(name)),
    }))
}

/// `timezone Europe/Berlin`, `timezone utc`.
fn timezone(words: &[&str]) -> Result<Command, LineError> {
    match words.get(1) {
        Some(z) if words.len() == 2 => {
            if ["utc", "gmt", "none", "off"].contains(&z.to_lowercase().as_str()) {
                Ok(Command::Timezone(None))
            } else {
                let zone = parse_zone(z).map_err(|e| LineError::Timezone { zone: Some(e) })?;
                Ok(Command::Timezone(Some(zone)))
            }
        }
        _ => Err(LineError::Timezone { zone: None }),
    }
}

/// `vacation 7`, `vacation 7 days`, `vacation off`.
fn vacation(words: &[&str], lower: &[String]) -> Result<Command, LineError> {
    match lower.get(1).map(String::as_str) {
        Some("off" | "over" | "end" | "back") if words.len() == 2 => Ok(Command::Vacation(None)),
        Some(d) if words.len() <= 3 && (words.len() == 2 || lower[2].starts_with("day")) => {
            match d.trim_end_matches('d').parse::<u32>() {
                Ok(n) if n > 0 => Ok(Command::Vacation(Some(n))),
                _ => Err(LineError::Vacation {
                    days: Some(words[1].to_string()),
                }),
            }
        }
        _ => Err(LineError::Vacation { days: None }),
    }
}

/// Whether `line` has a digit: every form of move, in pbem's notation or
/// another game's, holds a `\d` (which `is_numeric` covers), so a line of
/// words alone (most of prose) is none, without the move regexes.
fn holds_digit(line: &str) -> bool {
    line.chars().any(char::is_numeric)
}

/// A line that starts with no command word: a move alone on its line, or
/// chatter (`Ok(None)`; a time or a date is chatter too).
fn bare_moves(line: &str) -> Result<Option<Command>, LineError> {
    if !holds_digit(line) || clock_or_date(line) {
        return Ok(None);
    }
    match moves_in(line) {
        Some(moves) if moves.len() > 1 => Err(MoveLineError::Several(moves).into()),
        Some(_) => Ok(Some(Command::Move {
            number: None,
            text: line.to_string(),
        })),
        None if move_like(line) => Ok(Some(Command::Move {
            number: None,
            text: line.to_string(),
        })),
        None => Ok(None),
    }
}

/// A word of a player's line for quoting: at most 20 characters.
fn shorten_word(word: &str) -> String {
    match word.char_indices().nth(20) {
        Some((i, _)) => format!("{}...", &word[..i]),
        None => word.to_string(),
    }
}

fn strip_word(s: &str, word: &str) -> Option<String> {
    let (first, rest) = s.split_once(char::is_whitespace)?;
    first
        .eq_ignore_ascii_case(word)
        .then(|| rest.trim().to_string())
}

mod challenge;
mod condition;
mod error;
pub mod foreign;
mod read;
mod shapes;
use challenge::parse_challenge;
pub use condition::{MAX_PAIRS, condition_text};
use condition::{conditions_command, parse_condition};
pub use error::{ChallengeError, LineError, MoveLineError};
pub use read::{CommandError, Commands, ErrorKind, parse, reads_as_command};
use shapes::{clock_or_date, move_like, path_word, point_word};

#[cfg(test)]
mod tests;
