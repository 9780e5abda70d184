//! A game in play (issue 3, "Commands", "Records"): the commands of one
//! mail applied in order to the record, the turn; a mail is carried out
//! whole or not at all.

use super::*;

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
    /// refused (issue 12: a refused mail shows nothing of its refused
    /// moves; the refusal shows the board as it stands).
    pub(super) asked: Vec<Command>,
    /// The number of the command being carried out, in the mail.
    pub(super) index: usize,
}

impl<G: Game> Turn<'_, G> {
    pub(super) fn pos(&self) -> &G {
        self.replayed.position()
    }

    pub(super) fn ply(&self) -> usize {
        self.replayed.moves.len()
    }

    /// The board from the sender's seat.
    pub(super) fn board(&self) -> String {
        self.pos().diagram(&View {
            last: self.replayed.moves.last().cloned(),
            seat: Some(self.side),
            ply: self.ply(),
            ended: self.replayed.end.clone(),
        })
    }

    /// "Name <address>" of the player of `side`.
    pub(super) fn player(&self, side: Side) -> String {
        self.rec
            .players
            .get(G::RULES.side_name(side))
            .cloned()
            .unwrap_or_default()
    }

    pub(super) fn reply_to(&self, a: &Adjudicator<'_>, side: Side) -> Option<String> {
        self.secrets
            .tokens
            .get(G::RULES.side_name(side))
            .map(|k| a.identity.reply_to(self.id, k))
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

impl Adjudicator<'_> {
    /// Commands about one game, from a player who proved it (`side`).
    pub(super) fn in_game(
        &self,
        from: &str,
        mail: &Inbound,
        id: &str,
        table: Table,
        side: Side,
        commands: &[Command],
    ) -> Result<Handled> {
        let (record, secrets) = match table {
            Table::Game { record, secrets } => (record, secrets),
            Table::Challenge {
                rules, challenge, ..
            } => return self.answer(from, mail, id, rules, &challenge, side, commands),
            Table::Damaged { damage, .. } => return self.damaged(from, damage),
        };
        crate::with_game!(record.rules, G => self.play::<G>(from, mail, id, side, &secrets, record, commands))
    }

    /// Applies a mail's commands to a game, in order. A mail is carried
    /// out whole or not at all: the first refused command refuses the mail
    /// and nothing of it is written.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn play<G: Game>(
        &self,
        from: &str,
        mail: &Inbound,
        id: &str,
        side: Side,
        secrets: &Secrets,
        rec: Record,
        commands: &[Command],
    ) -> Result<Handled> {
        let replayed = match record::replay::<G>(&rec) {
            Ok(r) => r,
            Err(e) => return self.damaged(from, self.damage(id, &e)),
        };
        // This mail was handled before a crash: its lines stand in the
        // record. Nothing is written again; the replies are made again.
        let already = mail
            .message_id
            .as_ref()
            .map(|m| record::message_id_form(m))
            .is_some_and(|m| rec.lines.iter().any(|l| l.message_id.as_ref() == Some(&m)));
        let clock = self.game_clock(id, &rec)?;
        let mut t = Turn {
            id,
            from,
            mail,
            side,
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
        };
        // The board as it stands, for refusals: a refused mail changes
        // nothing, even if commands before the refused one were fine.
        let board = t.board();
        for (i, c) in commands.iter().enumerate() {
            t.index = i;
            if let Err(Refused { mut refusal, why }) = self.command(&mut t, c)? {
                if t.changed {
                    let before: Vec<Command> = commands[..i]
                        .iter()
                        .filter(|o| o.changes_game())
                        .cloned()
                        .collect();
                    refusal.reason = format!(
                        "after {} in the same mail, {}",
                        summary(&before),
                        refusal.reason
                    );
                }
                refusal.board = refusal.board.map(|_| board.clone());
                let others: Vec<Command> = commands
                    .iter()
                    .enumerate()
                    .filter(|&(j, o)| j != i && o.changes_game())
                    .map(|(_, o)| o.clone())
                    .collect();
                if !others.is_empty() {
                    refusal.skipped = summary(&others);
                }
                t.replies.push(self.reject(from, Some(id), refusal)?);
                return Ok(failed(
                    t.replies,
                    format!("refused {c} from {from} in {id}: {why}"),
                ));
            }
            if t.changed {
                // Replay what was added, so later commands see it.
                match record::replay::<G>(&Record {
                    result: None,
                    ..t.rec.clone()
                }) {
                    Ok(r) => t.replayed = r,
                    Err(e) => {
                        // The lines this mail added do not replay: the
                        // record on disk is sound, so nobody is asked
                        // to mend it; the mail is refused.
                        let refused = self.damaged(from, self.damage(id, &e))?;
                        return Ok(Handled {
                            damage: None,
                            ..refused
                        });
                    }
                }
            }
        }
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
        if changed || already {
            rec.result = Some((replayed.result().to_string(), 0));
            if changed {
                self.store.write_game(id, &record::write::to_string(&rec))?;
            }
            // After the record: the clock catches up from the record's
            // times, also after a crash in between.
            if let Some(gc) = &mut clock {
                self.sync_clock(gc, &rec)?;
                self.store.write_clock(id, gc, &self.identity.clocks)?;
            }
            replies.extend(self.news::<G>(id, &rec, &replayed, side, secrets, clock.as_ref())?);
        }
        replies.extend(asked);
        Ok(Handled {
            letters: replies,
            fate: format!("{id}: {}", fates.join("; ")),
            failed: false,
            progress: changed || already,
            ..Handled::default()
        })
    }

    /// Applies one command of a mail to `t`, or refuses it.
    pub(super) fn command<G: Game>(
        &self,
        t: &mut Turn<'_, G>,
        c: &Command,
    ) -> Result<std::result::Result<(), Refused>> {
        let rules = G::RULES;
        let me = rules.side_name(t.side);
        let refuse = |t: &Turn<'_, G>, reason: String, why: &str| {
            Ok(Err(Refused {
                refusal: Refusal {
                    board: Some(t.board()),
                    ..Refusal::new(c.to_string(), reason)
                },
                why: why.to_string(),
            }))
        };
        if let Some(end) = &t.replayed.end
            && c.changes_game()
            && !t.already
        {
            let result = match end.outcome {
                game::Outcome::Win(s) => format!("{} won", rules.side_name(s)),
                game::Outcome::Draw => "drawn".into(),
            };
            let reason = format!(
                "the game is over ({result}: {}); nothing more can be played in it",
                end.reason
            );
            return refuse(t, reason, "game over");
        }
        match c {
            Command::Move { number, text } => {
                if !t.already {
                    let ply = t.ply();
                    if t.pos().turn() != t.side {
                        let reason = format!(
                            "it is {}'s move, not yours (you play {me}); wait for their move",
                            rules.side_name(t.pos().turn())
                        );
                        return Ok(Err(Refused {
                            refusal: Refusal {
                                board: Some(t.board()),
                                wait: true,
                                ..Refusal::new(c.to_string(), reason)
                            },
                            why: "not their turn".into(),
                        }));
                    }
                    if let Some(n) = number
                        && *n as usize != ply + 1
                    {
                        let reason = format!(
                            "the move number #{n} does not fit: the game is at move #{}; {text} was not played. If you meant it for this move, send #{} {text}",
                            ply + 1,
                            ply + 1
                        );
                        return refuse(t, reason, "stale move number");
                    }
                    if let Some(gc) = &t.clock
                        && let Some(deadline) = gc.state.deadline()
                        && self.now >= deadline
                    {
                        let reason = format!(
                            "your time for this move ran out at {}; the game is lost on time",
                            crate::timecontrol::format_deadline(
                                deadline,
                                gc.state.side(t.side).zone
                            )
                        );
                        return refuse(t, reason, "out of time");
                    }
                    let m = match game::parse_move(t.pos(), text) {
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
                } else {
                    t.fates.push(format!("{me} played {text}"));
                }
            }
            Command::Resign | Command::OfferDraw => {
                if !t.already {
                    let ev = if *c == Command::Resign {
                        Event::Resign
                    } else {
                        Event::DrawOffered
                    };
                    t.push(None, Entry::Event(ev), self.now);
                }
                t.fates.push(format!("{me} {}", done_phrase(c)));
            }
            Command::AcceptDraw | Command::DeclineDraw => {
                if !t.already {
                    if t.replayed.draw_offer != Some(t.side.other()) {
                        let reason = "there is no draw offer from your opponent to answer; `draw` offers one";
                        return refuse(t, reason.into(), "no offer");
                    }
                    let ev = if *c == Command::AcceptDraw {
                        Event::DrawAgreed
                    } else {
                        Event::DrawDeclined
                    };
                    t.push(None, Entry::Event(ev), self.now);
                }
                t.fates.push(format!("{me} {}", done_phrase(c)));
            }
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
                return refuse(t, "the game has already begun".into(), "already begun");
            }
            Command::Timezone(zone) => {
                let mut p = self.store.player(t.from)?;
                p.zone = *zone;
                self.store.write_player(&p)?;
                if let Some(gc) = &mut t.clock {
                    gc.state.set_zone(t.side, *zone);
                }
                let text = format!(
                    "Your time zone is now {}: deadlines in all your games are shown in it{}. It is now {}.",
                    zone.map_or("UTC".to_string(), |z| z.name().to_string()),
                    if t.clock
                        .as_ref()
                        .is_some_and(|c| c.state.control.weekends_free)
                    {
                        ", and free weekends are counted in it"
                    } else {
                        ""
                    },
                    crate::timecontrol::format_deadline(self.now, *zone)
                );
                let reply = self.note(t, "time zone", &text)?;
                t.replies.push(reply);
                t.fates.push(format!("{me} set the time zone"));
            }
            Command::Vacation(days) => {
                let text = self.vacation(t.from, *days)?;
                // The vacation was written to this game's clock too.
                t.clock = self.game_clock(t.id, &t.rec)?;
                let reply = self.note(t, "vacation", &text)?;
                t.replies.push(reply);
                t.fates.push(format!("{me}: {c}"));
            }
            Command::Digest(mode) => {
                let mut p = self.store.player(t.from)?;
                p.digest = *mode;
                self.store.write_player(&p)?;
                let text = match mode {
                    crate::timecontrol::DigestMode::Off => "Digests are off: pbem writes to you about each event in your games as it happens.".to_string(),
                    crate::timecontrol::DigestMode::PerPoll => "News of your games (your opponents' moves, reminders, results) now comes gathered in one mail each time pbem reads its mail. Answers to your own mails still come at once.".to_string(),
                    crate::timecontrol::DigestMode::Daily { hour } => format!(
                        "News of your games (your opponents' moves, reminders, results) now comes in one mail a day, after {hour:02}:00 {}. A last call before a deadline still comes at once, and answers to your own mails too.",
                        p.zone.map_or("UTC".to_string(), |z| z.name().to_string())
                    ),
                };
                let reply = self.note(t, "digest", &text)?;
                t.replies.push(reply);
                t.fates.push(format!("{me}: {c}"));
            }
            other => {
                // `help`, `games`, `rules` asked in a game: answered in the
                // game's thread, with the player's key to reply with.
                let (replies, _) = self.gameless(t.from, t.mail, other, t.index)?;
                for r in replies {
                    t.replies.push(Letter {
                        game: Some(t.id.to_string()),
                        reply_to: t.reply_to(self, t.side),
                        ..r
                    });
                }
            }
        }
        Ok(Ok(()))
    }
}

/// "resigned", "offered a draw": what a command did, for the log.
pub(super) fn done_phrase(c: &Command) -> &'static str {
    match c {
        Command::Resign => "resigned",
        Command::OfferDraw => "offered a draw",
        Command::AcceptDraw => "agreed a draw",
        Command::DeclineDraw => "declined a draw",
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
        .is_some_and(|f| rec.players.values().any(|p| address_of(p) == *f))
}
