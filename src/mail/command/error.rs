//! Why a line that tried to be a command is not one: a [`LineError`]
//! names what the line was trying to be, and its text (quoting the
//! line's words, saying what to write) is the refusal the player reads.

use super::{example, first_two};
use crate::rules::UnknownRules;
use crate::timecontrol::{DigestModeError, TimeControlError, ZoneError};

/// Why a line is no command; `Display` is the refusal's text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error("write `accept` (a challenge), `accept draw` or `accept takeback`")]
    Accept,
    #[error("write `decline` (a challenge), `decline draw` or `decline takeback`")]
    Decline,
    #[error("write the token alone after the word: token abc123")]
    Token,
    /// `rules chess`, `ratings chess`.
    #[error(transparent)]
    Rules(#[from] UnknownRules),
    #[error(transparent)]
    Digest(#[from] DigestModeError),
    #[error(transparent)]
    Move(#[from] MoveLineError),
    #[error(transparent)]
    Challenge(#[from] ChallengeError),
    /// `moves x`, `moves 22 23`; `head` is the command word as written.
    #[error(
        "`{word}` is not a square number: `{head}` takes a square number, like {head} 22, or nothing"
    )]
    Square { head: String, word: String },
    #[error("one square at a time: `{head}` takes a square number, like {head} 22, or nothing")]
    Squares { head: String },
    #[error(
        "`{head}` needs the tournament's name, like {head} spring-cup (the name is in the tournament's mails)"
    )]
    NoTournament { head: String },
    #[error(
        "`{name}` is not a tournament's name: names are one word of letters, digits and dashes, like {head} spring-cup"
    )]
    Tournament { head: String, name: String },
    /// `timezone Mars/Base`, or `timezone` without one zone.
    #[error("{}", match .zone {
        Some(e) => e.to_string(),
        None => "write a time zone name after the word, like timezone Europe/Berlin (or timezone utc)".to_string(),
    })]
    Timezone { zone: Option<ZoneError> },
    /// `vacation soon`, `vacation 0`, or `vacation` without a number.
    #[error("{}", match .days {
        Some(d) => format!("`{d}` is not a number of days: write vacation 7 (days), or vacation off"),
        None => "write vacation 7 (days), or vacation off".to_string(),
    })]
    Vacation { days: Option<String> },
    /// `if 50-42 15-8`, `if 50-42 then 15-8 42-35`: the word that is no
    /// move (none: a move or a keyword is missing).
    #[error("{}{CONDITION_HOW}", match .word {
        Some(w) => format!("`{w}` is not one move: "),
        None => String::new(),
    })]
    Condition { word: Option<String> },
    #[error("this line chains {pairs} answers; at most {most} fit on one line: {CONDITION_HOW}")]
    LongCondition { pairs: usize, most: usize },
}

const CONDITION_HOW: &str = "write a conditional move like: if 50-42 then 15-8 (if your opponent plays 50-42, 15-8 is played for you at once); go on on the same line, if 50-42 then 15-8 if 42-35 then 8-1, and give each other answer a line of its own";

/// An attempt at a move that is not one move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveLineError {
    /// `#x 22-15`.
    #[error("`{0}` is not a move number: write it like #12 {ex}", ex = example())]
    Number(String),
    /// `#12` alone.
    #[error("#{0} needs a move after it, like #{0} {ex}", ex = example())]
    Numbered(u32),
    /// `move` or `play` alone (the word as written).
    #[error("`{0}` needs a move, like move {ex}", ex = example())]
    Missing(String),
    /// Several moves on one line: a mail plays one.
    #[error(
        "one move per mail: this line holds several moves ({}); send only the move you play now",
        first_two(.0)
    )]
    Several(Vec<String>),
}

/// A `challenge` line that does not say one game against one opponent.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChallengeError {
    #[error("two addresses; challenge one player at a time ({USAGE})")]
    TwoAddresses,
    #[error("an address and the bot: challenge one at a time ({USAGE})")]
    AddressAndBot,
    #[error("a level is for the bot ({USAGE})")]
    LevelForPlayer,
    #[error("whom do you challenge? {USAGE}")]
    NoOpponent,
    #[error("which game? {USAGE}")]
    NoGame,
    #[error(transparent)]
    Rules(#[from] UnknownRules),
    #[error(transparent)]
    Clock(#[from] TimeControlError),
    /// `level 9`, or `level` alone (`None`): the word shortened for quoting.
    #[error("{}", match .0 {
        Some(w) => format!("`level {w}`: {LEVEL_HOW}"),
        None => LEVEL_HOW.to_string(),
    })]
    Level(Option<String>),
    /// `series 99`, or `series` alone (`None`).
    #[error("{}", match .0 {
        Some(w) => format!("`series {w}`: {}", series_how()),
        None => series_how(),
    })]
    Series(Option<String>),
}

const USAGE: &str = "write it like: challenge boom-and-zoom bob@example.org [first|second|random] [3d or 3d+1d/10d, weekends-free] [series 3] [unrated], or challenge boom-and-zoom bot [level 1, 2 or 3] to play pbem's bot";

const LEVEL_HOW: &str = "write level and 1 (quickest), 2 or 3 (strongest), like level 2";

fn series_how() -> String {
    let lengths = pbem_league::series::LENGTHS;
    format!(
        "write series and a number of games from {} to {}, like series 3 (best of 3)",
        lengths.start(),
        lengths.end()
    )
}
