//! `challenge GAME ADDRESS [first|second|random] [TIME CONTROL] [series N]
//! [unrated]`: the words in any order, the game's name in one or more.

use super::{Command, Order, shorten_word};
use crate::rules::Rules;
use crate::timecontrol::TimeControl;

pub(super) fn parse_challenge(args: &[&str]) -> Result<Command, String> {
    const USAGE: &str = "write it like: challenge boom-and-zoom bob@example.org [first|second|random] [3d or 3d+1d/10d, weekends-free] [series 3] [unrated]";
    let mut order = Order::Random;
    let mut opponent = None;
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
                    return Err(format!(
                        "two addresses; challenge one player at a time ({USAGE})"
                    ));
                }
                opponent = Some(a.trim_matches(['<', '>', ',', ';']).to_string());
            }
            _ => game.push(*a),
        }
    }
    let Some(opponent) = opponent else {
        return Err(format!("whom do you challenge? {USAGE}"));
    };
    if game.is_empty() {
        return Err(format!("which game? {USAGE}"));
    }
    let rules: Rules = game
        .join(" ")
        .parse()
        .map_err(|e: crate::rules::UnknownRules| e.to_string())?;
    let clock = if clock.is_empty() {
        None
    } else {
        Some(
            clock
                .join(" ")
                .parse::<TimeControl>()
                .map_err(|e| e.to_string())?,
        )
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

/// The N of `series N`: a number of games in [`pbem_league::series::LENGTHS`].
fn series_length(word: Option<&str>) -> Result<u32, String> {
    let lengths = pbem_league::series::LENGTHS;
    let how = format!(
        "write series and a number of games from {} to {}, like series 3 (best of 3)",
        lengths.start(),
        lengths.end()
    );
    match word.map(|w| (w, w.parse::<u32>())) {
        Some((_, Ok(n))) if lengths.contains(&n) => Ok(n),
        Some((w, _)) => Err(format!("`series {}`: {how}", shorten_word(w))),
        None => Err(how),
    }
}
