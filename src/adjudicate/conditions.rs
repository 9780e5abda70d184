//! Conditional moves (`if THEIRS then MINE`): checked when they arrive,
//! against the position they answer; played at once when the opponent's
//! move matches, in the same batch as that move (the record, then the
//! set that is left: a crash between leaves the old set, which the mail
//! handled again plays through the record's lines to the same end);
//! dropped when the opponent plays anything else, offers a draw, resigns
//! or the game ends. Private: a player's set is told to that player
//! alone, and only the moves it plays reach the record.

use super::*;
use crate::store::conditions::Conditions;

/// How many refused lines of a mail list the legal moves where they
/// fail.
const LISTED_REFUSALS: usize = 3;

/// One conditional line: pairs of (their move, my answer), as the record
/// writes moves.
type Line = Vec<(String, String)>;

/// A player's conditional moves while a mail is carried out.
#[derive(Clone, Debug)]
struct Set {
    nonce: String,
    lines: Vec<Line>,
}

/// What conditional moves came to in one mail, for one player's mail.
#[derive(Debug, Default)]
pub(super) struct Note {
    /// The player set new ones in this mail.
    set: bool,
    /// The player cancelled theirs.
    cancelled: bool,
    /// The player asked for theirs (`conditions`).
    listed: bool,
    /// Why the player's were dropped: `unanswered` (the opponent played
    /// `dropped_after`), `event` (a draw offered, a resignation),
    /// `over`, `changed` (the player changed the game themselves).
    dropped: Option<&'static str>,
    dropped_after: Option<String>,
    /// The player's lines refused, each with why and the legal moves there.
    refused: Vec<minijinja::Value>,
    /// The player's lines standing once the mail is done.
    standing: Vec<String>,
}

/// The conditional moves played after a mail's own lines, as both
/// players are told them: ply, the side's name, the move, whose.
#[derive(Clone, Debug)]
pub(super) struct Reply {
    ply: usize,
    pub(super) side: Side,
    mover: &'static str,
    text: String,
    answers: String,
}

/// What [`Adjudicator::conditional`] decided: the notes by side, the
/// moves played for a set, and the file to leave (`None`: no file).
pub(super) struct Outcome {
    pub(super) notes: PerSide<Note>,
    pub(super) replies: Vec<Reply>,
    pub(super) file: Option<Option<Conditions>>,
}

impl Adjudicator<'_> {
    /// The conditional moves after the mail of `t` is carried out: the
    /// sender's new lines checked, then in turn each set that answers
    /// the last move played (or dropped when it answers none), the
    /// moves added to `t`. A mail handled again (its lines in the
    /// record) plays nothing: it leaves the file as the first time did.
    pub(super) fn conditional<G: Game>(&self, t: &mut Turn<'_, G>) -> Result<Outcome> {
        let stored = self.stored_conditions(t.id)?;
        if stored.is_none() && t.wished.is_empty() {
            // Most mails: nothing to check, play or keep.
            return Ok(Outcome {
                notes: PerSide::new(Note::default(), Note::default()),
                replies: if t.already {
                    conditional_lines(t)
                } else {
                    Vec::new()
                },
                file: None,
            });
        }
        if t.already {
            return self.conditional_again(t, stored);
        }
        let mut c = self.run_cascade(t, t.rec.clone(), t.replayed.clone(), stored.clone())?;
        let file = c.file_left(stored.as_ref());
        if c.rec.lines.len() != t.rec.lines.len() {
            for r in &c.replies {
                t.fates
                    .push(format!("{} played {} (conditional)", r.mover, r.text));
            }
            t.rec = c.rec;
            t.replayed = c.replayed;
            t.changed = true;
        }
        Ok(Outcome {
            notes: c.notes,
            replies: c.replies,
            file,
        })
    }

    /// The cascade of the mail of `t` on `rec` (replayed: `replayed`),
    /// from the set `stored`: the sets put where they play, the sender's
    /// new lines checked, the answers played.
    fn run_cascade<G: Game>(
        &self,
        t: &Turn<'_, G>,
        rec: Record,
        replayed: record::Replayed<G>,
        stored: Option<Conditions>,
    ) -> Result<Cascade<G>> {
        let mut c = Cascade {
            rec,
            replayed,
            sets: PerSide::new(None, None),
            notes: PerSide::new(Note::default(), Note::default()),
            replies: Vec::new(),
            mail_start: t.mail_start,
        };
        let before = c.moves_before();
        self.start_sets(&mut c, t, stored, &before);
        self.wished(&mut c, t)?;
        self.cascade(&mut c, t.id)?;
        Ok(c)
    }

    /// Game `id`'s conditions file; one that does not read counts as
    /// none (the next set replaces it, the log says so), one that cannot
    /// be read stops the mail.
    fn stored_conditions(&self, id: &str) -> Result<Option<Conditions>> {
        match self.desk.conditions(id) {
            Err(e @ StoreError::Parse { .. }) => {
                log::warn!(
                    "{}",
                    crate::logging::line("conditions", &[("game", &id), ("error", &e)])
                );
                Ok(None)
            }
            read => Ok(read?),
        }
    }

    /// The mail of `t` handled again: the record holds its lines and the
    /// conditional moves that followed them. It is played again on the
    /// record as it stood after the mail's own lines, from the set as it
    /// stood before the mail, if that is what the file still holds (a
    /// crash between the record and the file): the same moves, so the
    /// same set is left, and the same words for each player. A file that
    /// answers the record's end already is kept as it is.
    fn conditional_again<G: Game>(
        &self,
        t: &mut Turn<'_, G>,
        stored: Option<Conditions>,
    ) -> Result<Outcome> {
        let end = (t.replayed.moves.len(), last_move(&t.rec.lines));
        let replies = conditional_lines(t);
        let own_end = t.rec.lines.len() - replies.len();
        let mid = t.mail.message_id.as_deref().map(record::message_id_form);
        let run_end = t.rec.lines.iter().rposition(|l| l.message_id == mid);
        if run_end.map(|e| e + 1) != Some(own_end) {
            // Lines of later mails follow: the file is theirs to keep.
            let notes = PerSide::new(Note::default(), Note::default());
            return Ok(Outcome {
                notes,
                replies: Vec::new(),
                file: None,
            });
        }
        let mut rec = t.rec.clone();
        rec.lines.truncate(own_end);
        rec.result = None;
        let Ok(replayed) = record::replay::<G>(&rec) else {
            let notes = PerSide::new(Note::default(), Note::default());
            return Ok(Outcome {
                notes,
                replies,
                file: Some(None),
            });
        };
        let mut c = self.run_cascade(t, rec, replayed, stored.clone())?;
        let at_end = stored
            .as_ref()
            .filter(|s| s.after as usize == end.0 && s.last == end.1);
        let file = match at_end {
            Some(set) => {
                if let Some(owner) = G::RULES.side_named(&set.side) {
                    c.notes[owner].standing = set.lines.clone();
                    c.notes[owner].dropped = None;
                }
                None
            }
            None => c.file_left(stored.as_ref()),
        };
        Ok(Outcome {
            notes: c.notes,
            replies,
            file,
        })
    }

    /// The stored set, if it answers the position before the mail, put
    /// where it plays: the waiting player's answers the sender's move;
    /// the sender's own is dropped by any change the mail makes (and
    /// kept otherwise).
    fn start_sets<G: Game>(
        &self,
        c: &mut Cascade<G>,
        t: &Turn<'_, G>,
        stored: Option<Conditions>,
        before: &(usize, String),
    ) {
        let Some(set) = stored else {
            return;
        };
        let Some(owner) = G::RULES.side_named(&set.side) else {
            return;
        };
        if set.after as usize != before.0 || set.last != before.1 {
            return;
        }
        let lines: Vec<Line> = set.lines.iter().filter_map(|l| parse_stored(l)).collect();
        let mail_changed = c.rec.lines.len() > c.mail_start;
        if owner == t.side && mail_changed {
            let event = c.mail_events().next().is_some();
            c.notes[owner].dropped = Some(if event { "event" } else { "changed" });
        } else {
            c.sets[owner] = Some(Set {
                nonce: set.nonce,
                lines,
            });
        }
    }

    /// The sender's `conditions`, `cancel conditions` and new lines, in
    /// the mail's order: lines are checked against the position the
    /// mail leaves; a set with one good line replaces the old one.
    fn wished<G: Game>(&self, c: &mut Cascade<G>, t: &Turn<'_, G>) -> Result<()> {
        let me = t.side;
        let mut asked: Vec<Line> = Vec::new();
        for w in &t.wished {
            match w {
                Command::Conditions => c.notes[me].listed = true,
                Command::CancelConditions => {
                    asked.clear();
                    c.sets[me] = None;
                    c.notes[me].cancelled = true;
                }
                Command::Condition(pairs) => asked.push(pairs.clone()),
                _ => {}
            }
        }
        if asked.is_empty() {
            return Ok(());
        }
        let good = self.check_lines(c, me, &asked)?;
        if !good.is_empty() {
            c.sets[me] = Some(Set {
                nonce: self.draw.token()?,
                lines: good,
            });
            c.notes[me].set = true;
            c.notes[me].cancelled = false;
        }
        Ok(())
    }

    /// The lines of `asked` that hold where the mail leaves the game
    /// (`me` waiting for the opponent's move), canonical; each other
    /// refused in `c.notes[me]`, with why and the legal moves there.
    fn check_lines<G: Game>(
        &self,
        c: &mut Cascade<G>,
        me: Side,
        asked: &[Line],
    ) -> Result<Vec<Line>> {
        let mut good: Vec<Line> = Vec::new();
        // The same for every line: the position they answer is one.
        let not_now = self.why_not_now(c, me)?;
        for pairs in asked {
            let checked = match &not_now {
                Some(reason) => Err((reason.clone(), Vec::new())),
                None => self.walk(c.replayed.position(), me, pairs)?,
            };
            let checked = match checked {
                Ok(line) => match clash(&good, &line) {
                    Some((k, theirs, mine)) => Err((
                        self.words("condition_clash", context! { line => k + 1, theirs, mine })?,
                        Vec::new(),
                    )),
                    None => Ok(line),
                },
                Err(e) => Err(e),
            };
            match checked {
                Ok(line) => good.push(line),
                Err((reason, legal)) => {
                    // The legal moves of the first few refused lines: a
                    // mail of twenty bad lines stays a mail to read.
                    let listed = c.notes[me].refused.len() < LISTED_REFUSALS;
                    let legal = match legal.is_empty() || !listed {
                        true => None,
                        false => Some(listing(self.templates, &legal)?),
                    };
                    let line = command::condition_text(pairs);
                    c.notes[me].refused.push(context! { line, reason, legal });
                }
            }
        }
        Ok(good)
    }

    /// Why no conditional line can be set now, if none can: the game is
    /// over, it is the sender's move, a draw offer stands or was made.
    fn why_not_now<G: Game>(&self, c: &Cascade<G>, me: Side) -> Result<Option<String>> {
        let why = if c.replayed.end.is_some() {
            "over"
        } else if c.replayed.position().turn() == me {
            "your_move"
        } else if c.replayed.draw_offer.is_some()
            || c.replayed.takeback.is_some()
            || c.mail_events().next().is_some()
        {
            "event"
        } else {
            return Ok(None);
        };
        Ok(Some(self.words("condition_not_now", context! { why })?))
    }

    /// `pairs` played out from `pos` (the opponent of `me` to move): the
    /// line, canonical, or why not (and the legal moves where it fails).
    fn walk<G: Game>(
        &self,
        pos: &G,
        me: Side,
        pairs: &[(String, String)],
    ) -> Result<std::result::Result<Line, (String, Vec<String>)>> {
        let mut pos = pos.clone();
        let mut line = Line::new();
        for (theirs, mine) in pairs {
            let mut canon = [String::new(), String::new()];
            for (k, (text, side)) in [(theirs, me.other()), (mine, me)].into_iter().enumerate() {
                let after = line.last().map(|(_, m): &(String, String)| m.clone());
                if let Some(end) = game::outcome(&pos) {
                    let reason =
                        self.words("condition_ends", context! { after, reason => end.reason })?;
                    return Ok(Err((reason, Vec::new())));
                }
                if pos.turn() != side {
                    let reason = self.words(
                        "condition_turn",
                        context! { text, turn => G::RULES.side_name(pos.turn()) },
                    )?;
                    return Ok(Err((reason, Vec::new())));
                }
                match crate::play::parse_move(&pos, text) {
                    Ok(m) => {
                        canon[k] = game::canonical(&pos, m);
                        pos.play_unchecked(m);
                    }
                    Err(rej) => {
                        let (why, _) = rej.without_alternatives();
                        let yours = side == me;
                        let reason =
                            self.words("condition_illegal", context! { text, why, yours, theirs })?;
                        return Ok(Err((reason, all_moves(&pos))));
                    }
                }
            }
            let [t, m] = canon;
            line.push((t, m));
        }
        Ok(Ok(line))
    }

    /// Plays, in turn, each set that answers the last move: its answer
    /// added to the record as its owner's line, at the time of the move
    /// it answers; a set that answers none is dropped.
    fn cascade<G: Game>(&self, c: &mut Cascade<G>, id: &str) -> Result<()> {
        if c.mail_events().next().is_some() {
            for side in Side::BOTH {
                if c.sets[side].take().is_some() {
                    c.notes[side].dropped = Some("event");
                }
            }
        }
        loop {
            if c.replayed.end.is_some() {
                for side in Side::BOTH {
                    if c.sets[side].take().is_some() && c.notes[side].dropped.is_none() {
                        c.notes[side].dropped = Some("over");
                    }
                }
                return Ok(());
            }
            let turn = c.replayed.position().turn();
            let Some(set) = c.sets[turn].take() else {
                return Ok(());
            };
            // Only a move made since the set was: the mail's, or one a
            // set played in this cascade.
            let Some(last) =
                c.rec.lines[c.mail_start..]
                    .iter()
                    .rev()
                    .find_map(|l| match &l.entry {
                        Entry::Move(m) if l.side == Some(turn.other()) => Some((m.clone(), l.time)),
                        _ => None,
                    })
            else {
                c.sets[turn] = Some(set);
                return Ok(());
            };
            let (answered, tails): (Vec<&Line>, Vec<Line>) = {
                let hits: Vec<&Line> = set.lines.iter().filter(|l| l[0].0 == last.0).collect();
                let tails = hits
                    .iter()
                    .filter(|l| l.len() > 1)
                    .map(|l| l[1..].to_vec())
                    .collect();
                (hits, tails)
            };
            let Some(mine) = answered.first().map(|l| l[0].1.clone()) else {
                c.notes[turn].dropped = Some("unanswered");
                c.notes[turn].dropped_after = Some(last.0);
                return Ok(());
            };
            if !self.play_answer(c, id, turn, &set.nonce, &mine, &last)? {
                c.notes[turn].dropped = Some("unanswered");
                c.notes[turn].dropped_after = Some(last.0);
                return Ok(());
            }
            if !tails.is_empty() {
                c.sets[turn] = Some(Set {
                    nonce: set.nonce,
                    lines: tails,
                });
            }
        }
    }

    /// `mine`, the answer of `side`'s set to `last`, added to the record
    /// and replayed; `false` when it does not play there (a set is
    /// checked where it answers, so only a record edited by hand).
    fn play_answer<G: Game>(
        &self,
        c: &mut Cascade<G>,
        id: &str,
        side: Side,
        nonce: &str,
        mine: &str,
        last: &(String, Option<chrono::DateTime<chrono::FixedOffset>>),
    ) -> Result<bool> {
        let pos = c.replayed.position();
        let Ok(m) = crate::play::parse_move(pos, mine) else {
            return Ok(false);
        };
        let canonical = game::canonical(pos, m);
        let ply = c.replayed.moves.len() + 1;
        let domain = self.identity.domain();
        c.rec.lines.push(MoveLine {
            line: 0,
            number: Some(ply as u32),
            side: Some(side),
            entry: Entry::Move(canonical.clone()),
            time: Some(last.1.unwrap_or_else(|| self.now.fixed_offset())),
            message_id: Some(record::message_id_form(&format!(
                "<if.{id}.{ply}.{nonce}@{domain}>"
            ))),
        });
        match record::replay::<G>(&Record {
            result: None,
            ..c.rec.clone()
        }) {
            Ok(r) => c.replayed = r,
            Err(_) => {
                c.rec.lines.pop();
                return Ok(false);
            }
        }
        c.replies.push(Reply {
            ply,
            side,
            mover: G::RULES.side_name(side),
            text: canonical,
            answers: last.0.clone(),
        });
        Ok(true)
    }
}

/// The mail's work on conditional moves while it is carried out.
struct Cascade<G: Game> {
    rec: Record,
    replayed: record::Replayed<G>,
    sets: PerSide<Option<Set>>,
    notes: PerSide<Note>,
    replies: Vec<Reply>,
    /// The first of the record's lines the mail wrote.
    mail_start: usize,
}

impl<G: Game> Cascade<G> {
    /// How many moves the game had before the mail, and its last move.
    fn moves_before(&self) -> (usize, String) {
        let lines = &self.rec.lines[..self.mail_start];
        (record::plies(lines), last_move(lines))
    }

    /// The events the mail wrote that drop conditional moves: all but a
    /// draw or a takeback declined (a draw offered, a resignation, a
    /// takeback asked or agreed...).
    fn mail_events(&self) -> impl Iterator<Item = Event> + '_ {
        self.rec.lines[self.mail_start..]
            .iter()
            .filter_map(|l| match l.entry {
                Entry::Event(Event::DrawDeclined | Event::TakebackDeclined) | Entry::Move(_) => {
                    None
                }
                Entry::Event(e) => Some(e),
            })
    }

    /// The conditions file as the mail leaves it: the set of the player
    /// waiting for a move, if one stands; `None` (no change) when that is
    /// what is stored.
    fn file_left(&mut self, stored: Option<&Conditions>) -> Option<Option<Conditions>> {
        let waiting = self.replayed.position().turn().other();
        let standing = match (&self.sets[waiting], self.replayed.end.is_some()) {
            (Some(set), false) => Some(Conditions {
                side: G::RULES.side_name(waiting).to_string(),
                after: self.replayed.moves.len() as u32,
                last: last_move(&self.rec.lines),
                nonce: set.nonce.clone(),
                lines: set
                    .lines
                    .iter()
                    .map(|l| command::condition_text(l))
                    .collect(),
            }),
            _ => None,
        };
        if let Some(s) = &standing {
            self.notes[waiting].standing = s.lines.clone();
        }
        (stored != standing.as_ref()).then_some(standing)
    }
}

/// The canonical text of the last move of `lines`, empty before the first.
fn last_move(lines: &[MoveLine]) -> String {
    lines
        .iter()
        .rev()
        .find_map(|l| match &l.entry {
            Entry::Move(m) => Some(m.clone()),
            Entry::Event(_) => None,
        })
        .unwrap_or_default()
}

/// A stored line read back; `None` for one that does not read.
fn parse_stored(text: &str) -> Option<Line> {
    match command::parse_line(text) {
        Ok(Some(Command::Condition(pairs))) => Some(pairs),
        _ => None,
    }
}

/// Where `line` clashes with one of `good`: the same moves of the
/// opponent up to a point, then another answer; the clashing line's
/// index, and that move and answer.
fn clash(good: &[Line], line: &Line) -> Option<(usize, String, String)> {
    good.iter().enumerate().find_map(|(k, other)| {
        other
            .iter()
            .zip(line)
            .take_while(|(a, b)| a.0 == b.0)
            .find(|(a, b)| a.1 != b.1)
            .map(|(a, _)| (k, a.0.clone(), a.1.clone()))
    })
}

/// Whether `l` is a move a player's conditional moves played (its
/// Message-ID is of the form pbem gives those).
pub(super) fn is_conditional(l: &MoveLine) -> bool {
    matches!(l.entry, Entry::Move(_))
        && l.message_id
            .as_deref()
            .is_some_and(|m| m.starts_with("<if."))
}

/// The conditional moves at the end of `t`'s record, after the mail's
/// own lines: those under a conditional move's Message-ID.
fn conditional_lines<G: Game>(t: &Turn<'_, G>) -> Vec<Reply> {
    let tail = t
        .rec
        .lines
        .iter()
        .rev()
        .take_while(|l| is_conditional(l))
        .count();
    let first = t.rec.lines.len() - tail;
    let moves_before = t.replayed.moves.len() - tail;
    t.rec.lines[first..]
        .iter()
        .enumerate()
        .filter_map(|(k, l)| {
            let Entry::Move(m) = &l.entry else {
                return None;
            };
            let side = l.side?;
            let answers = last_move(&t.rec.lines[..first + k]);
            Some(Reply {
                ply: moves_before + k + 1,
                side,
                mover: G::RULES.side_name(side),
                text: m.clone(),
                answers,
            })
        })
        .collect()
}

impl Adjudicator<'_> {
    /// The news letters (side A's, then side B's) with what conditional
    /// moves came to for each reader: the moves played (public), and a
    /// reader's own set (theirs alone).
    pub(super) fn with_conditions(&self, news: Vec<Letter>, o: &Outcome) -> Vec<Letter> {
        news.into_iter()
            .zip(Side::BOTH)
            .map(|(letter, side)| match note_context(o, side) {
                Some(conditions) => Letter {
                    context: context! { conditions, ..letter.context },
                    ..letter
                },
                None => letter,
            })
            .collect()
    }

    /// The answer to a mail of conditional moves alone (set, refused,
    /// listed, cancelled) to its sender, with their key; `None` when the
    /// mail had none.
    pub(super) fn conditions_letter<G: Game>(
        &self,
        id: &str,
        rec: &Record,
        side: Side,
        secrets: &Secrets,
        o: &Outcome,
    ) -> Result<Option<Letter>> {
        let Some(conditions) = note_context(o, side) else {
            return Ok(None);
        };
        Ok(Some(Letter {
            to: rec.players[side].clone().unwrap_or_default(),
            kind: Kind::Answer,
            template: "conditions",
            context: context! { id, game => G::RULES.name(), conditions },
            game: Some(id.to_string()),
            reply_to: secrets.tokens[side]
                .as_ref()
                .map(|k| self.identity.reply_to(id, k)),
        }))
    }
}

/// What `side`'s reader is told of conditional moves, `None` when
/// nothing: the moves played are public, the rest is the reader's own.
fn note_context(o: &Outcome, side: Side) -> Option<minijinja::Value> {
    let n = &o.notes[side];
    let said = n.set
        || n.cancelled
        || n.listed
        || n.dropped.is_some()
        || !n.refused.is_empty()
        || !o.replies.is_empty();
    if !said {
        return None;
    }
    let replies: Vec<minijinja::Value> = o
        .replies
        .iter()
        .map(|r| {
            context! {
                ply => r.ply, mover => r.mover, text => &r.text, answers => &r.answers, yours => r.side == side,
            }
        })
        .collect();
    Some(context! {
        replies, set => n.set, cancelled => n.cancelled, listed => n.listed, dropped => n.dropped,
        dropped_after => &n.dropped_after, refused => &n.refused, standing => &n.standing,
    })
}
