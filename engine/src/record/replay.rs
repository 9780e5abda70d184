//! Replay: plays a record's lines through the rules, checking each move
//! and event, then checks `result` against the outcome.

use super::{Entry, Event, MoveLine, Record, RecordError, Verdict};
use crate::game::{self, End, Game, Outcome, PerSide, Side};
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
    /// A takeback asked and not yet answered, by this side (the one that
    /// made the last move).
    pub takeback: Option<Side>,
    /// The takebacks each side has asked for in the game, answered or
    /// not (the server's limit counts them).
    pub takebacks_asked: PerSide<u32>,
    /// The moves taken back, in the order they were taken back.
    pub taken_back: Vec<TakenBack>,
}

/// A move an accepted takeback took back (docs/src/formats/record.md,
/// "Takebacks"): the record keeps its line, the replay drops it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TakenBack {
    /// Its move number: the next move has the same.
    pub ply: usize,
    /// The side that played it, and asked to take it back.
    pub side: Side,
    pub notation: Notation,
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
    // A position and a move for each line but the events.
    let mut positions = Vec::with_capacity(record.lines.len() + 1);
    positions.push(G::start(record.first_side()));
    let mut out = Replayed {
        positions,
        moves: Vec::with_capacity(record.lines.len()),
        end: None,
        draw_offer: None,
        takeback: None,
        takebacks_asked: PerSide::default(),
        taken_back: Vec::new(),
    };
    play_lines(&mut out, record, 0)?;
    let name = |s: Side| G::RULES.side_name(s);
    let pos = out.position();
    let err = |line: usize, message: String| RecordError {
        file: record.file.clone(),
        line,
        message,
    };
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

/// `replayed`, the replay of `record`'s lines before `from` (by
/// [`replay`] or this), carried on through the lines from `from` on: the
/// lines added to the record since, as a mail's commands add them. It is
/// then what [`replay`] gives of the whole record without its `result`,
/// without playing the lines before again.
///
/// # Errors
/// As [`replay`], for the lines from `from` on; `replayed` is then left
/// part-way, to be thrown away.
pub fn replay_more<G: Game>(
    replayed: &mut Replayed<G>,
    record: &Record,
    from: usize,
) -> Result<(), RecordError> {
    debug_assert_eq!(record.rules, G::RULES);
    play_lines(replayed, record, from)
}

/// Plays `record`'s lines from `from` on into `out`, which holds the
/// replay of those before, then finds how the game stands at the end.
fn play_lines<G: Game>(
    out: &mut Replayed<G>,
    record: &Record,
    from: usize,
) -> Result<(), RecordError> {
    let err = |line: usize, message: String| RecordError {
        file: record.file.clone(),
        line,
        message,
    };
    let name = |s: Side| G::RULES.side_name(s);
    // The last position stands for the game between lines (a takeback
    // accepted goes back to an earlier one).
    let mut pos = out.position().clone();
    for ml in record.lines.iter().skip(from) {
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
                // A move answers any pending offer or takeback asked
                // (declining it).
                out.draw_offer = None;
                out.takeback = None;
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
                apply_event(out, *ev, ml, name).map_err(|m| err(ml.line, m))?;
                if *ev == Event::TakebackAccepted {
                    pos = out.position().clone();
                }
            }
        }
    }
    if out.end.is_none() {
        out.end = game::outcome(&pos);
    }
    Ok(())
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

/// What event `ev` (on line `ml`) does to the game replayed so far, or
/// why it cannot be there. Its side, when the line names none, is the
/// side to move, but for `takeback asked`: the side that moved last.
fn apply_event<G: Game>(
    out: &mut Replayed<G>,
    ev: Event,
    ml: &MoveLine,
    name: impl Fn(Side) -> &'static str,
) -> Result<(), String> {
    let turn = out.position().turn();
    let side = ml.side.unwrap_or(match ev {
        Event::TakebackAsked => last_mover(out).unwrap_or(turn.other()),
        _ => turn,
    });
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
        Event::TakebackAsked => ask_takeback(out, side, name)?,
        Event::TakebackAccepted | Event::TakebackDeclined => {
            answer_takeback(out, ev, side, name)?;
        }
    }
    Ok(())
}

/// The side that played the last move; `None` before the first.
fn last_mover<G: Game>(out: &Replayed<G>) -> Option<Side> {
    let n = out.positions.len();
    n.checked_sub(2).map(|i| out.positions[i].turn())
}

/// `takeback asked` by `side`: it played the last move, and has no
/// request waiting.
fn ask_takeback<G: Game>(
    out: &mut Replayed<G>,
    side: Side,
    name: impl Fn(Side) -> &'static str,
) -> Result<(), String> {
    let what = Event::TakebackAsked.as_str();
    let Some(mover) = last_mover(out) else {
        return Err(format!(
            "`{} {what}`: no move has been played to take back",
            name(side)
        ));
    };
    if mover != side {
        return Err(format!(
            "`{} {what}`: the last move ({}. {}) is {}'s; a side takes back only its own move",
            name(side),
            out.moves.len(),
            out.moves
                .last()
                .map(|n| n.canonical(G::RULES.geometry()))
                .unwrap_or_default(),
            name(mover)
        ));
    }
    if out.takeback.is_some() {
        return Err(format!(
            "`{} {what}`: {} asked already and has no answer yet",
            name(side),
            name(side)
        ));
    }
    out.takeback = Some(side);
    out.takebacks_asked[side] += 1;
    Ok(())
}

/// `takeback accepted` or `declined` (`ev`) by `side`: the other side
/// asked. Accepted, the last move and its position go (the record keeps
/// the line), and with them a draw offered about that position.
fn answer_takeback<G: Game>(
    out: &mut Replayed<G>,
    ev: Event,
    side: Side,
    name: impl Fn(Side) -> &'static str,
) -> Result<(), String> {
    match out.takeback {
        Some(asker) if asker != side => {}
        Some(_) => {
            return Err(format!(
                "`{} {}`: {} asked for this takeback; only the opponent answers it",
                name(side),
                ev.as_str(),
                name(side)
            ));
        }
        None => {
            return Err(format!(
                "`{} {}`: no takeback was asked (a line `{} takeback asked` comes first)",
                name(side),
                ev.as_str(),
                name(side.other())
            ));
        }
    }
    out.takeback = None;
    if ev == Event::TakebackAccepted {
        let ply = out.moves.len();
        // Asked only after a move, by its side: both are there.
        if let (Some(notation), Some(_)) = (out.moves.pop(), out.positions.pop()) {
            out.taken_back.push(TakenBack {
                ply,
                side: side.other(),
                notation,
            });
        }
        out.draw_offer = None;
    }
    Ok(())
}

fn describe(end: &End, name: impl Fn(Side) -> &'static str) -> String {
    match end.outcome {
        Outcome::Win(s) => format!("{} won", name(s)),
        Outcome::Draw => "drawn".to_string(),
    }
}
