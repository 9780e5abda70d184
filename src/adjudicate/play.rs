//! A game in play: the commands of one
//! mail applied in order to the record, the turn; a mail is carried out
//! whole or not at all.

use super::*;
use crate::reply::address_of;

/// A command refused, and why (for the log).
pub(super) struct Refused {
    pub(super) refusal: Refusal,
    pub(super) why: String,
}

/// One game while a mail's commands are applied to it.
pub(super) struct Turn<'a, G: Game> {
    pub(super) id: &'a str,
    pub(super) from: &'a str,
    pub(super) mail: &'a Inbound,
    /// The side of the mail's sender.
    pub(super) side: Side,
    pub(super) secrets: &'a Secrets,
    pub(super) rec: Record,
    pub(super) replayed: record::Replayed<G>,
    /// The mail was handled before (its Message-ID is in the record).
    pub(super) already: bool,
    /// Lines were added to `rec`.
    pub(super) changed: bool,
    /// The game's clock, caught up with the record, if it has one.
    pub(super) clock: Option<GameClock>,
    pub(super) replies: Vec<Letter>,
    pub(super) fates: Vec<String>,
    /// `board` and `moves` asked in the mail: answered once the whole mail
    /// is carried out, on the position it leaves; not at all when it is
    /// refused (a refused mail shows nothing of its refused
    /// moves; the refusal shows the board as it stands).
    pub(super) asked: Vec<Command>,
    /// The number of the command being carried out, in the mail.
    pub(super) index: usize,
    /// `if ... then ...`, `conditions` and `cancel conditions` in the
    /// mail: worked out once its moves are carried out, on the position
    /// they leave.
    pub(super) wished: Vec<Command>,
    /// The first of the record's lines this mail writes (or, handled
    /// again, wrote).
    pub(super) mail_start: usize,
}

impl<G: Game> Turn<'_, G> {
    pub(super) fn pos(&self) -> &G {
        self.replayed.position()
    }

    pub(super) fn ply(&self) -> usize {
        self.replayed.moves.len()
    }

    /// The board from the sender's seat.
    pub(super) fn board(&self) -> minijinja::Value {
        crate::mail::board::board(self.pos(), &self.replayed.view(self.ply(), Some(self.side)))
    }

    /// "Name <address>" of the player of `side`.
    pub(super) fn player(&self, side: Side) -> String {
        self.rec.players[side].clone().unwrap_or_default()
    }

    pub(super) fn reply_to(&self, a: &Adjudicator<'_>, side: Side) -> Option<String> {
        self.secrets.tokens[side]
            .as_ref()
            .map(|k| a.identity.reply_to(self.id, k))
    }

    /// The refusal of command `c` for `reason` (`why` for the log), with
    /// the board.
    pub(super) fn refused(&self, c: &Command, reason: String, why: &str) -> Refused {
        Refused {
            refusal: Refusal {
                board: Some(self.board()),
                ..Refusal::new(c.to_string(), reason)
            },
            why: why.to_string(),
        }
    }

    /// Adds a line written by the sender, now, from this mail.
    pub(super) fn push(&mut self, number: Option<u32>, entry: Entry, now: DateTime<Utc>) {
        self.rec.lines.push(MoveLine {
            line: 0,
            number,
            side: Some(self.side),
            entry,
            time: Some(now.fixed_offset()),
            message_id: self.mail.message_id.as_deref().map(record::message_id_form),
        });
        self.changed = true;
    }
}

/// A mail about one game from a player who proved it: who sent it, the
/// game, their side, and its commands.
pub(super) struct GameMail<'a> {
    pub(super) from: &'a str,
    pub(super) mail: &'a Inbound,
    pub(super) id: &'a str,
    pub(super) side: Side,
    pub(super) commands: &'a [Command],
}

impl Adjudicator<'_> {
    /// Commands about one game, from a player who proved it (`m.side`).
    pub(super) fn in_game(&self, m: &GameMail<'_>, table: Table) -> Result<Handled> {
        let (record, secrets) = match table {
            Table::Game { record, secrets } => (record, secrets),
            Table::Challenge {
                rules, challenge, ..
            } => return self.answer(m, rules, &challenge),
            Table::Damaged { damage, .. } => return self.damaged(m.from, damage),
            Table::Confirm { id, request } => return self.confirm(m, &id, request),
        };
        crate::with_game!(record.rules, G => self.play::<G>(m, &secrets, record))
    }

    /// Applies a mail's commands to a game, in order. A mail is carried
    /// out whole or not at all: the first refused command refuses the mail
    /// and nothing of it is written.
    fn play<G: Game>(&self, m: &GameMail<'_>, secrets: &Secrets, rec: Record) -> Result<Handled> {
        let (from, id) = (m.from, m.id);
        let replayed = match record::replay::<G>(&rec) {
            Ok(r) => r,
            Err(e) => return self.damaged(from, self.damage(id, &e)),
        };
        // This mail was handled before a crash: its lines stand in the
        // record. Nothing is written again; the replies are made again.
        let run = handled_before::<G>(&rec, m);
        let (already, mail_start) = (run.is_some(), run.unwrap_or(rec.lines.len()));
        let clock = self.game_clock(id, &rec)?;
        let mut t = Turn {
            id,
            from,
            mail: m.mail,
            side: m.side,
            secrets,
            rec,
            replayed,
            already,
            changed: false,
            clock,
            replies: Vec::new(),
            fates: Vec::new(),
            asked: Vec::new(),
            index: 0,
            wished: Vec::new(),
            mail_start,
        };
        if let Some(refused) = self.apply_all(&mut t, m.commands)? {
            return Ok(refused);
        }
        self.finish(t)
    }

    /// Applies the commands to `t` in order; what becomes of the mail
    /// when one is refused (or what it added does not replay).
    fn apply_all<G: Game>(
        &self,
        t: &mut Turn<'_, G>,
        commands: &[Command],
    ) -> Result<Option<Handled>> {
        let (from, id) = (t.from, t.id);
        // The position as it stands, for refusals: a refused mail changes
        // nothing, even if commands before the refused one were fine.
        // Drawn only for a refusal, most mails have none.
        let before = (t.pos().clone(), t.replayed.view(t.ply(), Some(t.side)));
        // The record's lines `t.replayed` has played.
        let mut replayed_lines = t.rec.lines.len();
        for (i, c) in commands.iter().enumerate() {
            t.index = i;
            if let Err(Refused { mut refusal, why }) = self.command(t, c)? {
                if t.changed {
                    let before: Vec<Command> = commands[..i]
                        .iter()
                        .filter(|o| o.changes_game())
                        .cloned()
                        .collect();
                    refusal.reason = self.words(
                        "after_in_the_same_mail",
                        context! { before => summary(&before), reason => refusal.reason },
                    )?;
                }
                // Until a command changes the game, the refusal's board
                // (drawn as it stands) is the one from before the mail.
                if t.changed {
                    let (pos, view) = &before;
                    refusal.board = refusal.board.map(|_| crate::mail::board::board(pos, view));
                }
                let others: Vec<Command> = commands
                    .iter()
                    .enumerate()
                    .filter(|&(j, o)| j != i && o.changes_game())
                    .map(|(_, o)| o.clone())
                    .collect();
                if !others.is_empty() {
                    refusal.skipped = summary(&others);
                }
                let mut letters = std::mem::take(&mut t.replies);
                letters.push(self.reject(from, Some(id), refusal)?);
                return Ok(Some(failed(
                    letters,
                    Fate::RefusedCommand {
                        command: c.to_string(),
                        from: from.to_string(),
                        id: id.to_string(),
                        why: why.to_string(),
                    },
                )));
            }
            if t.rec.lines.len() != replayed_lines {
                // Play what was added, so later commands see it: a command
                // only adds lines, and those before stand as replayed.
                let played = match t.rec.lines.len() > replayed_lines {
                    true => record::replay_more(&mut t.replayed, &t.rec, replayed_lines),
                    false => record::replay::<G>(&Record {
                        result: None,
                        ..t.rec.clone()
                    })
                    .map(|r| t.replayed = r),
                };
                replayed_lines = t.rec.lines.len();
                match played {
                    Ok(()) => {}
                    Err(e) => {
                        // The lines this mail added do not replay: the
                        // record on disk is sound, so nobody is asked
                        // to mend it; the mail is refused.
                        let refused = self.damaged(from, self.damage(id, &e))?;
                        return Ok(Some(Handled {
                            damage: None,
                            ..refused
                        }));
                    }
                }
            }
        }
        Ok(None)
    }

    /// A mail carried out: the record and the clock written, the news to
    /// both players, then the answers to `board` and `moves`.
    fn finish<G: Game>(&self, mut t: Turn<'_, G>) -> Result<Handled> {
        let conditions = self.conditional(&mut t)?;
        let (id, side, secrets, already) = (t.id, t.side, t.secrets, t.already);
        // After the news of the mail's moves, in the order asked.
        let mut asked = Vec::new();
        for c in std::mem::take(&mut t.asked) {
            asked.push(self.board_reply(&t, &c)?);
        }
        let Turn {
            mut rec,
            replayed,
            changed,
            mut replies,
            fates,
            mut clock,
            ..
        } = t;
        let moved = changed || already;
        if moved {
            rec.result = Some((replayed.result(), 0));
        }
        if changed {
            self.desk.write_record(id, &rec)?;
        }
        // After the record: a crash between leaves the set as it was
        // before the mail, which the mail handled again plays through.
        if let Some(file) = conditions.file.clone() {
            self.desk.set_conditions(id, file)?;
        }
        if moved {
            // After the record: the clock catches up from the record's
            // times, also after a crash in between.
            if let Some(gc) = &mut clock {
                self.sync_clock(gc, &rec)?;
                self.desk.write_clock(id, gc, &self.identity.clocks)?;
            }
            // The rating and the series' next step before the news, which
            // shows them: only for a game that ended (read from the
            // replay at hand, not from another of the whole record).
            let settled = match replayed.end {
                Some(_) => self.settle(id, &rec)?,
                None => Vec::new(),
            };
            // The news of the last line: a conditional move's, when one
            // followed the mail's.
            let mover = match conditions.replies.last() {
                Some(r) => r.side,
                None => side,
            };
            let news = self.news::<G>(id, &rec, &replayed, mover, secrets, clock.as_ref())?;
            replies.extend(self.with_conditions(news, &conditions));
            replies.extend(settled);
        } else if let Some(letter) =
            self.conditions_letter::<G>(id, &rec, side, secrets, &conditions)?
        {
            replies.push(letter);
        }
        replies.extend(asked);
        Ok(Handled {
            letters: replies,
            fate: Fate::Played {
                id: id.to_string(),
                steps: fates,
            },
            failed: false,
            progress: moved,
            ..Handled::default()
        })
    }

    /// Applies one command of a mail to `t`, or refuses it.
    fn command<G: Game>(
        &self,
        t: &mut Turn<'_, G>,
        c: &Command,
    ) -> Result<std::result::Result<(), Refused>> {
        if let Some(refused) = self.game_over_refusal(t, c)? {
            return Ok(Err(refused));
        }
        if let Some(Some(ev)) = line_of(c) {
            return self.event_command(t, c, ev);
        }
        let me = G::RULES.side_name(t.side);
        match c {
            Command::Move { number, text } => return self.move_command(t, c, *number, text),
            Command::Board | Command::Moves { .. } => {
                t.asked.push(c.clone());
                t.fates.push(format!("{me} asked for {c}"));
            }
            // An accept handled again after a crash: the game exists but
            // nothing is played yet; send the opening mails.
            Command::Accept if t.rec.lines.is_empty() && already_accepted(t.mail, &t.rec) => {
                t.replies.extend(self.started_letters(t.id)?);
                t.fates.push(format!("{me} accepted (again)"));
            }
            Command::Accept | Command::Decline => {
                let reason = self.words("already_begun", context! {})?;
                return Ok(Err(t.refused(c, reason, "already begun")));
            }
            Command::Timezone(_) | Command::Vacation(_) | Command::Digest(_) => {
                self.setting(t, c)?;
            }
            Command::Rematch => return self.rematch_command(t, c),
            Command::Condition(_) | Command::Conditions | Command::CancelConditions => {
                t.wished.push(c.clone());
                t.fates.push(format!("{me} asked {c}"));
            }
            Command::Analysis => return self.analysis_command(t, c),
            other => self.asked_in_game(t, other)?,
        }
        Ok(Ok(()))
    }

    /// The refusal of a command that would change a game that is over
    /// (unless the mail was handled before, when it changed it).
    fn game_over_refusal<G: Game>(&self, t: &Turn<'_, G>, c: &Command) -> Result<Option<Refused>> {
        let Some(end) = &t.replayed.end else {
            return Ok(None);
        };
        if !c.changes_game() || t.already {
            return Ok(None);
        }
        let winner = match end.outcome {
            game::Outcome::Win(s) => Some(G::RULES.side_name(s)),
            game::Outcome::Draw => None,
        };
        let won = end.outcome == game::Outcome::Win(t.side);
        let reason = self.words(
            "game_over",
            context! { winner, won, reason => end.reason.clone() },
        )?;
        Ok(Some(t.refused(c, reason, "game over")))
    }

    /// A command that writes event `ev` (a resignation, a draw offered,
    /// agreed or declined), or why not: a draw is agreed or declined
    /// only when the other side offered one.
    fn event_command<G: Game>(
        &self,
        t: &mut Turn<'_, G>,
        c: &Command,
        ev: Event,
    ) -> Result<std::result::Result<(), Refused>> {
        if is_takeback(ev) {
            return self.takeback_command(t, c, ev);
        }
        if !t.already {
            let answers_offer = matches!(ev, Event::DrawAgreed | Event::DrawDeclined);
            if answers_offer && t.replayed.draw_offer != Some(t.side.other()) {
                let reason = self.words("no_draw_offer", context! {})?;
                return Ok(Err(t.refused(c, reason, "no offer")));
            }
            t.push(None, Entry::Event(ev), self.now);
        }
        let me = G::RULES.side_name(t.side);
        t.fates.push(format!("{me} {}", done_phrase(c)));
        Ok(Ok(()))
    }

    /// `rematch`, offered once the game is over, or why not.
    fn rematch_command<G: Game>(
        &self,
        t: &mut Turn<'_, G>,
        c: &Command,
    ) -> Result<std::result::Result<(), Refused>> {
        if t.replayed.end.is_none() {
            let reason = self.words("rematch_in_play", context! {})?;
            return Ok(Err(t.refused(c, reason, "rematch in play")));
        }
        let (letters, refused) = self.rematch(t)?;
        t.replies.extend(letters);
        let me = G::RULES.side_name(t.side);
        let did = if refused {
            "was refused a rematch"
        } else {
            "offered a rematch"
        };
        t.fates.push(format!("{me} {did}"));
        Ok(Ok(()))
    }

    /// `help`, `games`, `rules` asked in a game: answered in the game's
    /// thread, with the player's key to reply with.
    fn asked_in_game<G: Game>(&self, t: &mut Turn<'_, G>, c: &Command) -> Result<()> {
        let (replies, _) = self.gameless(t.from, t.mail, c, t.index, Some(t.id))?;
        for r in replies {
            t.replies.push(Letter {
                game: Some(t.id.to_string()),
                reply_to: t.reply_to(self, t.side),
                ..r
            });
        }
        Ok(())
    }

    /// A move (`number`, if the mail numbered it, and `text`), or why not.
    fn move_command<G: Game>(
        &self,
        t: &mut Turn<'_, G>,
        c: &Command,
        number: Option<u32>,
        text: &str,
    ) -> Result<std::result::Result<(), Refused>> {
        let rules = G::RULES;
        let me = rules.side_name(t.side);
        if t.already {
            t.fates.push(format!("{me} played {text}"));
            return Ok(Ok(()));
        }
        let ply = t.ply();
        if t.pos().turn() != t.side {
            let reason = self.words(
                "not_your_turn",
                context! { turn => rules.side_name(t.pos().turn()), me },
            )?;
            let mut refused = t.refused(c, reason, "not their turn");
            refused.refusal.wait = true;
            return Ok(Err(refused));
        }
        if let Some(n) = number
            && n as usize != ply + 1
        {
            let reason = self.words("stale_move_number", context! { n, next => ply + 1, text })?;
            return Ok(Err(t.refused(c, reason, "stale move number")));
        }
        if let Some(deadline) = self.deadline_passed(t) {
            let reason = self.words("out_of_time", context! { deadline })?;
            return Ok(Err(t.refused(c, reason, "out of time")));
        }
        let m = match crate::play::parse_move(t.pos(), text) {
            Ok(m) => m,
            Err(rej) => {
                let (reason, from_square) = rej.without_alternatives();
                let (from, legal) = match from_square {
                    Some((sq, list)) => (Some(sq), list),
                    None => (None, all_moves(t.pos())),
                };
                return Ok(Err(Refused {
                    refusal: Refusal {
                        board: Some(t.board()),
                        legal,
                        from,
                        rule: rej.cite(),
                        ..Refusal::new(c.to_string(), reason)
                    },
                    why: rej.to_string(),
                }));
            }
        };
        let canonical = game::canonical(t.pos(), m);
        t.fates.push(format!("{me} played {canonical}"));
        t.push(Some(ply as u32 + 1), Entry::Move(canonical), self.now);
        Ok(Ok(()))
    }
}

/// Whether the mail `m` was handled before (a crash came after its lines
/// were written, before its key was committed): the last run of `rec`'s
/// lines under its Message-ID was written by its sender's side and is
/// exactly what its commands write, move for move. A Message-ID alone
/// never says so: anyone may send a mail with an id that stands in the
/// record (a line of the other side's, the bot's, the sender's own
/// earlier mail), and such a mail is another mail, carried out as any.
///
/// The index of the run's first line when it was.
fn handled_before<G: Game>(rec: &Record, m: &GameMail<'_>) -> Option<usize> {
    let mid = m.mail.message_id.as_deref().map(record::message_id_form)?;
    let ours = |l: &MoveLine| l.message_id.as_ref() == Some(&mid);
    let last = rec.lines.iter().rposition(ours)?;
    let first = rec.lines[..last]
        .iter()
        .rposition(|l| !ours(l))
        .map_or(0, |i| i + 1);
    let run = &rec.lines[first..=last];
    let written: Vec<&Command> = m.commands.iter().filter(|c| line_of(c).is_some()).collect();
    if run.len() != written.len() || run.iter().any(|l| l.side != Some(m.side)) {
        return None;
    }
    // The positions up to the run's end: the lines after it (a takeback
    // among them) change nothing of what it played.
    let Ok(upto) = record::replay::<G>(&Record {
        lines: rec.lines[..=last].to_vec(),
        result: None,
        ..rec.clone()
    }) else {
        return None;
    };
    let mut ply = record::plies(&rec.lines[..first]);
    let same = run
        .iter()
        .zip(written)
        .all(|(line, c)| match (&line.entry, c) {
            (Entry::Move(played), Command::Move { text, .. }) => {
                let same = upto.positions.get(ply).is_some_and(|pos| {
                    let canonical = |t: &str| {
                        crate::play::parse_move(pos, t)
                            .ok()
                            .map(|mv| game::canonical(pos, mv))
                    };
                    canonical(text).is_some_and(|c| Some(c) == canonical(played))
                });
                ply += 1;
                same
            }
            (Entry::Event(e), c) => {
                if *e == Event::TakebackAccepted {
                    ply = ply.saturating_sub(1);
                }
                line_of(c) == Some(Some(*e))
            }
            _ => false,
        });
    same.then_some(first)
}

/// The line a command writes in the record: `Some(None)` a move,
/// `Some(Some(event))` an event, `None` no line.
fn line_of(c: &Command) -> Option<Option<Event>> {
    match c {
        Command::Move { .. } => Some(None),
        Command::Resign => Some(Some(Event::Resign)),
        Command::OfferDraw => Some(Some(Event::DrawOffered)),
        Command::AcceptDraw => Some(Some(Event::DrawAgreed)),
        Command::DeclineDraw => Some(Some(Event::DrawDeclined)),
        Command::Takeback => Some(Some(Event::TakebackAsked)),
        Command::AcceptTakeback => Some(Some(Event::TakebackAccepted)),
        Command::DeclineTakeback => Some(Some(Event::TakebackDeclined)),
        _ => None,
    }
}

/// "resigned", "offered a draw": what a command did, for the log.
pub(super) fn done_phrase(c: &Command) -> &'static str {
    match c {
        Command::Resign => "resigned",
        Command::OfferDraw => "offered a draw",
        Command::AcceptDraw => "agreed a draw",
        Command::DeclineDraw => "declined a draw",
        Command::Takeback => "asked to take back their move",
        Command::AcceptTakeback => "agreed to a takeback",
        Command::DeclineTakeback => "declined a takeback",
        _ => "did something",
    }
}

/// Every legal move in `pos`, canonical.
pub(super) fn all_moves<G: Game>(pos: &G) -> Vec<String> {
    game::listed_moves(pos)
        .into_iter()
        .map(|(_, n)| n.canonical(G::RULES.geometry()))
        .collect()
}

/// Whether `mail` can be the accept that created `rec`: the sender plays
/// in it (the caller checked that no move is played yet).
pub(super) fn already_accepted(mail: &Inbound, rec: &Record) -> bool {
    mail.from
        .as_ref()
        .is_some_and(|f| rec.players.given().any(|(_, p)| address_of(p) == *f))
}
