//! Replay: plays a record's lines through the rules, checking each move
//! and event, then checks `result` against the outcome.

use super::{Entry, Event, MoveLine, Record, RecordError, Verdict};
use crate::game::{self, End, Game, Outcome, Side};
use crate::notation::Notation;

/// A replayed game: the final position, every position on the way, and how
/// (whether) the game ended.
#[derive(Clone, Debug)]
pub struct Replayed<G: Game> {
    /// Position after each ply: `positions[0]` is the start.
    pub positions: Vec<G>,
    /// The canonical notation of each move played.
    pub moves: Vec<Notation>,
    /// How the game ended: by the rules, a resignation, a timeout or an
    /// agreed draw; `None` while in play.
    pub end: Option<End>,
    /// A draw offered and not yet answered, by this side.
    pub draw_offer: Option<Side>,
}

impl<G: Game> Replayed<G> {
    pub fn position(&self) -> &G {
        self.positions
            .last()
            .expect("the start position is always there")
    }
    /// The record's `result` for how the moves end: in play, drawn, won.
    pub fn result(&self) -> Verdict {
        Verdict::of(self.end.as_ref().map(|e| e.outcome))
    }

    /// How to draw the position after `ply` moves from `seat`: that
    /// move marked, and the game's end at the last position (a record
    /// plays no move after the end, so no position before it is one).
    pub fn view(&self, ply: usize, seat: Option<Side>) -> game::View {
        game::View {
            last: ply.checked_sub(1).and_then(|i| self.moves.get(i).cloned()),
            seat,
            ply,
            ended: if ply == self.moves.len() {
                self.end.clone()
            } else {
                None
            },
        }
    }
}

/// `*`, the winner's name, or `draw`.
pub fn result_word<G: Game>(end: Option<&End>) -> &'static str {
    Verdict::of(end.map(|e| e.outcome)).word(G::RULES)
}

/// Replays `record` as game `G` (the caller dispatches on `record.rules`
/// with [`crate::with_game!`]).
///
/// # Errors
/// The first bad line: an illegal or malformed move, a side or move number
/// that does not fit, a line after the end; or a `result` that differs from
/// the replay, at the `result` line.
pub fn replay<G: Game>(record: &Record) -> Result<Replayed<G>, RecordError> {
    debug_assert_eq!(record.rules, G::RULES);
    let err = |line: usize, message: String| RecordError {
        file: record.file.clone(),
        line,
        message,
    };
    let name = |s: Side| G::RULES.side_name(s);
    let mut pos = G::start(record.first_side());
    // A position and a move for each line but the events.
    let mut positions = Vec::with_capacity(record.lines.len() + 1);
    positions.push(pos.clone());
    let mut out = Replayed {
        positions,
        moves: Vec::with_capacity(record.lines.len()),
        end: None,
        draw_offer: None,
    };
    for ml in &record.lines {
        let ply = out.moves.len() as u32 + 1;
        let after_end = |end: &End| {
            let what = match &ml.entry {
                Entry::Move(m) => m.clone(),
                Entry::Event(e) => e.as_str().to_string(),
            };
            err(
                ml.line,
                format!(
                    "{what} comes after the end of the game ({}: {})",
                    describe(end, name),
                    end.reason
                ),
            )
        };
        // An event looks for the end of the game here. A move finds it
        // where it is matched against the legal moves (generated once):
        // only a move that does not go looks here, so that a line after
        // the end is refused as that, whatever else is wrong with it.
        if out.end.is_none() && matches!(ml.entry, Entry::Event(_)) {
            out.end = game::outcome(&pos);
        }
        if let Some(end) = &out.end {
            return Err(after_end(end));
        }
        match &ml.entry {
            Entry::Move(text) => {
                let m = check_move_line(ml, ply, pos.turn(), name, &err).and_then(|()| {
                    crate::play::parse_move(&pos, text).map_err(|e| err(ml.line, e.to_string()))
                });
                let m = match m {
                    Ok(m) => m,
                    Err(e) => return Err(game::outcome(&pos).map_or(e, |end| after_end(&end))),
                };
                out.moves.push(pos.notation(m));
                pos.play_unchecked(m);
                out.positions.push(pos.clone());
                // A move answers any pending offer (declining it).
                out.draw_offer = None;
            }
            Entry::Event(ev) => {
                if let Some(n) = ml.number
                    && n != ply
                    && n + 1 != ply
                {
                    return Err(err(
                        ml.line,
                        format!("{n}. does not fit here: the last move was {}.", ply - 1),
                    ));
                }
                let side = ml.side.unwrap_or(pos.turn());
                apply_event(&mut out, *ev, side, name);
            }
        }
    }
    if out.end.is_none() {
        out.end = game::outcome(&pos);
    }
    if let Some((claimed, line)) = record.result {
        let actual = out.result();
        if claimed != actual {
            let (claimed, actual) = (claimed.word(G::RULES), actual.word(G::RULES));
            let why = match &out.end {
                None => format!("the game is still in play, {} to move", name(pos.turn())),
                Some(end) => end.reason.clone(),
            };
            return Err(err(
                line,
                format!("result = \"{claimed}\" but the moves give \"{actual}\" ({why})"),
            ));
        }
    }
    Ok(out)
}

/// Whether a move line's side and number (when written) are the side to
/// move and the ply; the message for the player when not.
fn check_move_line(
    ml: &MoveLine,
    ply: u32,
    turn: Side,
    name: impl Fn(Side) -> &'static str,
    err: &impl Fn(usize, String) -> RecordError,
) -> Result<(), RecordError> {
    if let Some(s) = ml.side
        && s != turn
    {
        return Err(err(
            ml.line,
            format!(
                "the line says {} but it is {}'s move {ply}",
                name(s),
                name(turn)
            ),
        ));
    }
    if let Some(n) = ml.number
        && n != ply
    {
        return Err(err(
            ml.line,
            format!(
                "move number {n}. should be {ply}. (moves are numbered 1, 2, 3, ... for both sides)"
            ),
        ));
    }
    Ok(())
}

/// What an event by `side` does to the game replayed so far.
fn apply_event<G: Game>(
    out: &mut Replayed<G>,
    ev: Event,
    side: Side,
    name: impl Fn(Side) -> &'static str,
) {
    match ev {
        Event::Resign => {
            out.end = Some(End::win(side.other(), format!("{} resigned", name(side))));
        }
        Event::Timeout => {
            out.end = Some(End::win(
                side.other(),
                format!("{} ran out of time", name(side)),
            ));
        }
        Event::DrawOffered => out.draw_offer = Some(side),
        Event::DrawDeclined => out.draw_offer = None,
        Event::DrawAgreed => out.end = Some(End::draw("drawn by agreement")),
    }
}

fn describe(end: &End, name: impl Fn(Side) -> &'static str) -> String {
    match end.outcome {
        Outcome::Win(s) => format!("{} won", name(s)),
        Outcome::Draw => "drawn".to_string(),
    }
}
