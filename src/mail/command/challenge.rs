//! `challenge GAME ADDRESS [first|second|random] [TIME CONTROL] [series N]
//! [unrated]`, or `challenge GAME bot [level N]` against pbem's bot: the
//! words in any order, the game's name in one or more.

use super::{ChallengeError, Command, Opponent, Order, shorten_word};
use crate::rules::Rules;
use crate::timecontrol::TimeControl;
use pbem_engine::bot::Level;

pub(super) fn parse_challenge(args: &[&str]) -> Result<Command, ChallengeError> {
    let mut order = Order::Random;
    let mut opponent = None;
    let mut bot = false;
    let mut level = None;
    let mut game = Vec::new();
    let mut clock = Vec::new();
    let mut series = None;
    let mut rated = true;
    let mut args = args.iter();
    while let Some(a) = args.next() {
        let lower = a.to_lowercase();
        match lower.as_str() {
            "series" | "best-of" => series = Some(series_length(args.next().copied())?),
            "unrated" => rated = false,
            "rated" => rated = true,
            "bot" | "computer" => bot = true,
            "level" => level = Some(bot_level(args.next().copied())?),
            // `level 2`, or a bare level after `bot`.
            "1" | "2" | "3" if bot => level = Some(bot_level(Some(a))?),
            "first" => order = Order::First,
            "second" => order = Order::Second,
            "random" => order = Order::Random,
            // A time control: `3d`, `3d+1d/10d`, `weekends-free`.
            w if w.starts_with("weekend")
                || w.starts_with(|c: char| c.is_ascii_digit()) && w.contains('d') =>
            {
                clock.push(*a);
            }
            _ if a.contains('@') => {
                if opponent.is_some() {
                    return Err(ChallengeError::TwoAddresses);
                }
                opponent = Some(a.trim_matches(['<', '>', ',', ';']).to_string());
            }
            _ => game.push(*a),
        }
    }
    let opponent = match (opponent, bot) {
        (Some(_), true) => return Err(ChallengeError::AddressAndBot),
        (Some(a), false) if level.is_none() => Opponent::Player(a),
        (Some(_), false) => return Err(ChallengeError::LevelForPlayer),
        (None, true) => Opponent::Bot(level.unwrap_or(Level::new(2).unwrap_or(Level::MAX))),
        (None, false) => return Err(ChallengeError::NoOpponent),
    };
    if game.is_empty() {
        return Err(ChallengeError::NoGame);
    }
    let rules: Rules = game.join(" ").parse()?;
    let clock = if clock.is_empty() {
        None
    } else {
        Some(clock.join(" ").parse::<TimeControl>()?)
    };
    Ok(Command::Challenge {
        rules,
        opponent,
        order,
        clock,
        series,
        rated,
    })
}

/// The N of `level N` (the bot's strength).
fn bot_level(word: Option<&str>) -> Result<Level, ChallengeError> {
    match word.map(|w| (w, w.parse::<u8>().ok().and_then(Level::new))) {
        Some((_, Some(level))) => Ok(level),
        Some((w, None)) => Err(ChallengeError::Level(Some(shorten_word(w)))),
        None => Err(ChallengeError::Level(None)),
    }
}

/// The N of `series N`: a number of games in [`pbem_league::series::LENGTHS`].
fn series_length(word: Option<&str>) -> Result<u32, ChallengeError> {
    match word.map(|w| (w, w.parse::<u32>())) {
        Some((_, Ok(n))) if pbem_league::series::LENGTHS.contains(&n) => Ok(n),
        Some((w, _)) => Err(ChallengeError::Series(Some(shorten_word(w)))),
        None => Err(ChallengeError::Series(None)),
    }
}
