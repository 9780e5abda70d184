//! A mail's body read line by line: its commands, the lines that tried to
//! be one and failed (each typed by what it was trying to be), and what
//! refuses the mail whole. A line that fails beside good commands is left
//! out and the rest carried out ([`ErrorKind`]); a mail is refused whole
//! only when pbem cannot tell what it asks (two moves, a move and a
//! resignation) or when it asks too much.

use super::*;

/// What a line that failed as a command was trying to be, or why the
/// mail as a whole cannot be carried out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// An attempt at one move: a move in another game's notation, `#12`
    /// without a move pbem reads, `move` alone, two moves on one line, a
    /// move with a look-alike character in it.
    Move,
    /// A list of moves, three or more on one line (`50-26, 50-29,
    /// 50-33`): a list pasted or quoted, no move to play.
    MoveList,
    /// Another command gone wrong: `accept drwa`, `rules chess`,
    /// `timezone Mars/Base`.
    Command,
    /// The mail holds more than one attempt at a move (written right or
    /// not), or a move and a resignation: pbem cannot tell which is meant.
    Ambiguous,
    /// The mail holds more than [`MAX_COMMANDS`] commands.
    TooMany,
}

impl ErrorKind {
    /// Whether the error refuses the mail whole, whatever else it holds;
    /// an error of a line leaves that line out, beside good commands.
    pub fn refuses_mail(self) -> bool {
        matches!(self, ErrorKind::Ambiguous | ErrorKind::TooMany)
    }
}

/// A line that tried to be a command and failed, or what refuses the
/// mail whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandError {
    /// The line as written (trimmed), shortened for quoting.
    pub line: String,
    pub message: String,
    pub kind: ErrorKind,
    /// The line is a move in another game's notation: the adjudicator,
    /// which knows the game, words the refusal and its hint.
    pub foreign: Option<foreign::ForeignMove>,
}

impl CommandError {
    fn new(kind: ErrorKind, line: String, message: String) -> CommandError {
        CommandError {
            line,
            message,
            kind,
            foreign: None,
        }
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: {}", self.line, self.message)
    }
}

/// What a mail body says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Commands {
    pub commands: Vec<Command>,
    pub errors: Vec<CommandError>,
}

/// A line as the reader reads it: trimmed, its closing `.` or `!` left out.
fn as_read(raw: &str) -> &str {
    raw.trim().trim_end_matches(['.', '!']).trim()
}

/// Whether a line of text reads as a command, or as one the reader refuses:
/// never true of a line pbem writes, so a line in a quote that
/// does is the player's. A caption (`Legal moves: 50-26, 50-29`) is not.
pub fn reads_as_command(line: &str) -> bool {
    foreign::read(as_read(line)).is_some() || !matches!(parse_line(as_read(line)), Ok(None))
}

/// What a line that [`parse_line`] refused was trying to be, by its
/// shape: a move when it starts as one (`#12`, `move`, `play`) or holds
/// one or two moves and nothing else; a list of three moves or more;
/// else another command.
fn kind_of(line: &str) -> ErrorKind {
    let first = line.split_whitespace().next().unwrap_or("").to_lowercase();
    if first.starts_with('#') || first == "move" || first == "play" {
        return ErrorKind::Move;
    }
    match moves_on(line) {
        Some(moves) if moves.len() > 2 => ErrorKind::MoveList,
        Some(_) => ErrorKind::Move,
        None if move_like(line) => ErrorKind::Move,
        None => ErrorKind::Command,
    }
}

/// Parses every line of a cleaned body (see [`super::text`]).
pub fn parse(body: &str) -> Commands {
    let mut out = Commands::default();
    let mut chatter = Vec::new();
    // The attempts at a move, valid or not, in the mail's order.
    let mut moves = Vec::new();
    // The length of the line above, 0 after a blank one.
    let mut above = 0;
    for raw in body.lines() {
        let line = as_read(raw);
        let after = std::mem::replace(&mut above, raw.trim().chars().count());
        if line.is_empty() {
            continue;
        }
        let long = line.chars().nth(MAX_LINE).is_some();
        let error = match parse_line(line) {
            _ if foreign::read(line).is_some() => foreign_error(line),
            Ok(None) => {
                chatter.push((line, after));
                continue;
            }
            _ if long => CommandError::new(
                kind_of(line),
                shorten(line),
                format!(
                    "this line is {} characters long, too long for a command (at most {MAX_LINE}); write each command on a short line of its own",
                    line.chars().count()
                ),
            ),
            Ok(Some(c)) => {
                if matches!(c, Command::Move { .. }) {
                    moves.push(c.to_string());
                }
                out.commands.push(c);
                continue;
            }
            Err(e) => CommandError::new(kind_of(line), quoted(line), e.to_string()),
        };
        if error.kind == ErrorKind::Move {
            // As written: a line of two moves is one attempt.
            moves.push(shorten(line));
        }
        out.errors.push(error);
    }
    out.errors.extend(ambiguity(&moves, &out.commands));
    if out.commands.len() > MAX_COMMANDS {
        out.errors.push(CommandError::new(
            ErrorKind::TooMany,
            format!("{} commands", out.commands.len()),
            format!(
                "a mail may hold at most {MAX_COMMANDS} commands, and this one holds {}; nothing of it was done",
                out.commands.len()
            ),
        ));
    }
    if out.commands.is_empty() && out.errors.is_empty() {
        out.errors.extend(near_miss(&chatter));
    }
    out
}

/// What makes a mail ambiguous, given its attempts at a move (`moves`,
/// valid or not, as written) and its `commands`: more than one move (the
/// second would be refused as not this player's turn, after the first was
/// played), or a move and `resign` (play on, or give up?). pbem must not
/// guess: it refuses the mail whole and names what it holds, so the player
/// can send the one they mean. A move and a draw offer are both meant.
fn ambiguity(moves: &[String], commands: &[Command]) -> Option<CommandError> {
    if moves.len() > 1 {
        return Some(CommandError::new(
            ErrorKind::Ambiguous,
            shorten(&first_two(moves)),
            format!(
                "one move per mail: this mail holds {} moves ({}); send only the move you play now",
                moves.len(),
                first_two(moves)
            ),
        ));
    }
    let [mv] = moves else {
        return None;
    };
    commands.contains(&Command::Resign).then(|| {
        CommandError::new(
            ErrorKind::Ambiguous,
            shorten(&format!("{mv}, resign")),
            format!(
                "this mail holds a move ({mv}) and `resign`: pbem cannot tell whether you play on or give up; send the move alone to play it, or `resign` alone to give up"
            ),
        )
    })
}

/// Whether a chatter line is shaped like a player's near miss (`mvoe
/// 13-21`, `13-21 please`): a few words with one move-like word in them;
/// not a row of a board, a caption (`From 16: 16-14, 16-1`), a list, a
/// numbered line of a record (`1.   93x84`), nor the end of a paragraph
/// wrapped from the line above (`beyond 1-8`: `after` is that line's
/// length).
fn near_miss_shaped(line: &str, after: usize) -> bool {
    let move_like = line
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| "()[]\"'`!?.,;:".contains(c)))
        .filter(|w| move_like(w) && !clock_or_date(w))
        .count();
    let numbered = line
        .split_whitespace()
        .next()
        .is_some_and(|w| w.ends_with('.') && w[..w.len() - 1].bytes().all(|b| b.is_ascii_digit()));
    !line.starts_with(['|', '+'])
        && line.split_whitespace().count() <= 5
        && move_like <= 1
        && !numbered
        && !labelled(line)
        && after < WRAPPED
}

/// A line this long (in characters) above a chatter line makes it the
/// end of a paragraph a client or pbem wrapped, not a line of its own.
const WRAPPED: usize = 50;

/// In a mail of nothing but chatter, a line with a move in it was most
/// likely meant as one (`mvoe 13-21`, `13-21 please`, `13х21` with a
/// Cyrillic `х`): the error that says how to write it, if any.
fn near_miss(chatter: &[(&str, usize)]) -> Option<CommandError> {
    // A short line of the player's, not a row of a board nor a sentence
    // of pbem's quoted back unrecognised.
    let near = chatter
        .iter()
        .filter(|(l, after)| near_miss_shaped(l, *after))
        .find_map(|(line, _)| {
            line.split_whitespace()
                .map(|w| w.trim_matches(|c: char| "()[]\"'`!?.,;:".contains(c)))
                .find(|w| move_like(w) && !clock_or_date(w))
                .map(|w| (line, w))
        });
    if let Some((line, w)) = near.filter(|(_, w)| w.chars().nth(60).is_none()) {
        return Some(CommandError::new(
            ErrorKind::Move,
            shorten(line),
            format!(
                "pbem reads a move only when it stands alone on its line; if you meant {w}, write it by itself, or as `move {w}`"
            ),
        ));
    }
    // Say which character, or the player sees only "no
    // command" beside a move they think they wrote.
    let (line, c) = chatter.iter().find_map(|(line, _)| {
        line.split_whitespace()
            .find_map(lookalike)
            .map(|c| (line, c))
    })?;
    Some(CommandError::new(
        ErrorKind::Move,
        shorten(line),
        format!(
            "{}; write moves with the digits 0-9 and the marks of your game's notation, like {} (`rules GAME` shows them)",
            crate::glyph::unexpected(c),
            example()
        ),
    ))
}

/// The refusal of `line`, a move in another game's notation.
fn foreign_error(line: &str) -> CommandError {
    CommandError {
        foreign: foreign::read(line),
        ..CommandError::new(ErrorKind::Move, line.to_string(), FOREIGN.into())
    }
}

/// The log's word for a move in another game's notation; the player's
/// refusal is worded by the adjudicator (`foreign_move`).
const FOREIGN: &str = "a move in another game's notation";
