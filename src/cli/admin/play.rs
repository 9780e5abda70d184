//! `pbem move`'s move: played for the side to move, or found played
//! already by an earlier run, or refused with why.

use crate::game::{self, Game, View};
use crate::play::Rejected;
use crate::record::{self, Entry, MoveLine, Record, RecordError, Replayed};
use chrono::{DateTime, Utc};

/// What `pbem move` did.
#[derive(Debug)]
pub(super) enum Played {
    /// The move is in the record now: the board after it.
    Now(String),
    /// The move was in the record already as the move asked for (an
    /// earlier run got it in): what the admin is told.
    Already(String),
    /// Refused: the move is the admin's last move already (an earlier run
    /// got it in, most likely): why.
    Again(String),
}

/// Why `pbem move` plays nothing (it exits 1).
#[derive(Debug, thiserror::Error)]
pub(super) enum PlayError {
    /// The record does not replay, before the move or with it.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// `--ply` names no move the game has had or is at.
    #[error(
        "--ply {ply}: the game is at move {next} (moves are numbered 1, 2, 3, ... for both sides)"
    )]
    NoSuchPly { ply: u32, next: u32 },
    /// `--ply` names a move of the record, and it is another move.
    #[error("--ply {ply}: move {ply} is {played} already, not {asked}")]
    OtherMove {
        ply: u32,
        played: String,
        asked: String,
    },
    /// The game has ended.
    #[error("the game is over ({reason})")]
    Over { reason: String },
    /// No legal move of the position: the engine's words, with its hint.
    #[error(transparent)]
    Rejected(#[from] Rejected),
}

/// Plays `text` for the side to move in `rec` (as move `ply`, when
/// given), or finds it played already.
///
/// # Errors
/// [`PlayError`]: nothing is played.
pub(super) fn play_admin<G: Game>(
    rec: &mut Record,
    text: &str,
    ply: Option<u32>,
    now: DateTime<Utc>,
) -> Result<Played, PlayError> {
    let replayed = record::replay::<G>(rec)?;
    if let Some(before) = played_before(rec, &replayed, text, ply)? {
        return Ok(before);
    }
    if let Some(end) = &replayed.end {
        return Err(PlayError::Over {
            reason: end.reason.clone(),
        });
    }
    let next = replayed.moves.len() as u32 + 1;
    let board = append(rec, replayed.position(), text, next, now)?;
    Ok(Played::Now(board))
}

/// What an earlier run did with `text`, when it did: with `--ply N`, move
/// N of the record is this move already (or `--ply` is refused: another
/// move, or a number past the next); without, the record's last move is
/// this one, played by the admin.
fn played_before<G: Game>(
    rec: &Record,
    replayed: &Replayed<G>,
    text: &str,
    ply: Option<u32>,
) -> Result<Option<Played>, PlayError> {
    let moves = replayed.moves.len() as u32;
    let next = moves + 1;
    // Whether `text` is move `n` of the record (1 ..= moves): read in the
    // position before it.
    let is_move = |n: u32| -> bool {
        let i = n as usize - 1;
        let before = &replayed.positions[i];
        crate::play::parse_move(before, text).is_ok_and(|m| {
            game::canonical(before, m) == replayed.moves[i].canonical(G::RULES.geometry())
        })
    };
    let shown = |n: u32| replayed.moves[n as usize - 1].canonical(G::RULES.geometry());
    match ply {
        Some(n) if n == 0 || n > next => Err(PlayError::NoSuchPly { ply: n, next }),
        Some(n) if n < next && is_move(n) => Ok(Some(Played::Already(format!(
            "move {n} is {} already",
            shown(n)
        )))),
        Some(n) if n < next => Err(PlayError::OtherMove {
            ply: n,
            played: shown(n),
            asked: text.trim().to_string(),
        }),
        Some(_) => Ok(None),
        // The admin's own last move again: a `pbem move` run twice, the
        // first cut short after its move got in.
        None => Ok(rec
            .lines
            .last()
            .filter(|last| {
                matches!(last.entry, Entry::Move(_)) && last.message_id.is_none() && is_move(moves)
            })
            .map(|last| Played::Again(again(last, &shown(moves), moves)))),
    }
}

/// Why the admin's last move `shown` (move `moves`, written on `last`)
/// is not played again without `--ply`.
fn again(last: &MoveLine, shown: &str, moves: u32) -> String {
    let at = last
        .time
        .map(|t| {
            format!(
                " at {}",
                crate::timecontrol::format_deadline(t.to_utc(), None)
            )
        })
        .unwrap_or_default();
    let next = moves + 1;
    format!(
        "{shown} is the game's last move already (move {moves}, played by the admin{at}; its \
         mails are sent or in the outbox); nothing done. To play it again as move {next}, \
         add --ply {next}"
    )
}

/// Plays `text` in `pos`, the position of `rec`, as move `next`: its line
/// added, the result set from the replay; the board after it.
fn append<G: Game>(
    rec: &mut Record,
    pos: &G,
    text: &str,
    next: u32,
    now: DateTime<Utc>,
) -> Result<String, PlayError> {
    let m = crate::play::parse_move(pos, text)?;
    rec.lines.push(MoveLine {
        line: 0,
        number: Some(next),
        side: Some(pos.turn()),
        entry: Entry::Move(game::canonical(pos, m)),
        time: Some(now.fixed_offset()),
        message_id: None,
    });
    // Replayed without the old `result` ("*"), which a move that ends the
    // game makes wrong; the new one is set from the replay.
    let after = record::replay::<G>(&Record {
        result: None,
        ..rec.clone()
    })?;
    rec.result = Some((after.result(), 0));
    Ok(after.position().diagram(&View {
        last: after.moves.last().cloned(),
        seat: None,
        ply: after.moves.len(),
        ..View::default()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    fn play(rec: &mut Record, text: &str, ply: Option<u32>) -> Result<Played, PlayError> {
        let now = "2026-11-20T10:00:00Z".parse().unwrap();
        crate::with_game!(rec.rules, G => play_admin::<G>(rec, text, ply, now))
    }

    #[test]
    fn a_move_is_played_found_played_or_refused_by_kind() {
        let rules = Rules::BoomAndZoom;
        let mut rec =
            Record::from_move_list("bz.toml", rules, rules.side_named("red"), "58-50\n1-9\n")
                .unwrap();
        assert!(matches!(
            play(&mut rec, "1-10", Some(2)),
            Err(PlayError::OtherMove { ply: 2, ref played, ref asked }) if played == "1-9" && asked == "1-10"
        ));
        assert!(matches!(
            play(&mut rec, "50-42", Some(4)),
            Err(PlayError::NoSuchPly { ply: 4, next: 3 })
        ));
        assert!(matches!(
            play(&mut rec, "1-9", Some(2)),
            Ok(Played::Already(ref w)) if w == "move 2 is 1-9 already"
        ));
        // The last move, by the admin (no Message-ID), asked for again.
        assert!(matches!(play(&mut rec, "1-9", None), Ok(Played::Again(_))));
        assert!(matches!(
            play(&mut rec, "64-1", Some(3)),
            Err(PlayError::Rejected(_))
        ));
        assert_eq!(rec.lines.len(), 2, "nothing played");
        assert!(matches!(
            play(&mut rec, "50-42", Some(3)),
            Ok(Played::Now(_))
        ));
        assert_eq!(rec.lines.len(), 3);
    }
}
